// libFuzzer target for the scenario store's opener: the input is the bytes of a store file. Every
// open must either work or fail with an error naming the file, never crash, and a file it refuses
// or finds damaged must come out byte-identical (also after a refused write). A good seed corpus
// is a few real stores, e.g. one made by `dctwin-cli store --store seed.sqlite list`.
#include "dct/store/scenariostore.h"

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace {

std::string readFile(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

const std::filesystem::path& scratchFile()
{
    static const std::filesystem::path path = [] {
        const auto dir = std::filesystem::temp_directory_path() /
                         ("dct-fuzz-store-" + std::to_string(::getpid()));
        std::filesystem::create_directories(dir);
        return dir / "store.sqlite";
    }();
    return path;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const auto& path = scratchFile();
    std::error_code ec;
    for (const char* suffix : {"", "-wal", "-shm", "-journal"})
        std::filesystem::remove(path.string() + suffix, ec);
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    {
        std::ofstream out(path, std::ios::binary);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    }
    dct::store::StoreOpenOptions options;
    options.busyTimeoutMs = 0;
    options.integrityCheckBudgetMs = 500;
    bool mustBeUnchanged = true;
    {
        auto store = dct::store::ScenarioStore::open(path, options);
        if (!store) {
            if (store.error().file != path.string() || store.error().message.empty())
                std::abort(); // an error must name the file and say what is wrong
        } else {
            if (auto list = store->list())
                for (const auto& item : *list)
                    (void)store->load(item.name);
            if (store->readOnly()) {
                if (store->save("fuzz", "{}") || store->setNotes("fuzz", "x"))
                    std::abort(); // a damaged store took a write
            } else {
                mustBeUnchanged = false; // a sound store (or an empty file made one) may change
            }
        }
    }
    if (mustBeUnchanged && readFile(path) != bytes)
        std::abort();
    return 0;
}
