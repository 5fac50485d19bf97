#include "dct/model/atomicfile.h"

#include <cstdio>
#include <fcntl.h>
#include <fstream>
#include <system_error>
#include <unistd.h>

namespace dct {

namespace {

/** Flushes \a path's data to disk; returns false when the system says it could not. */
bool syncFile(const std::filesystem::path& path)
{
    const int fd = ::open(path.c_str(), O_RDONLY);
    if (fd < 0)
        return false;
    const bool synced = ::fsync(fd) == 0;
    return ::close(fd) == 0 && synced;
}

} // namespace

Result<void> writeFileAtomically(const std::filesystem::path& path,
                                 const std::function<void(std::ostream&)>& write)
{
    const std::string file = path.string();
    std::filesystem::path tmp = path;
    tmp += ".part-" + std::to_string(::getpid());
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out)
            return makeError(file, "", "cannot create a temporary file beside the target",
                             "a writable folder");
        write(out);
        out.flush();
        out.close();
        if (!out || !syncFile(tmp)) {
            std::remove(tmp.c_str());
            return makeError(file, "", "writing the file failed (disk full?)",
                             "a writable folder with free space");
        }
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::remove(tmp.c_str());
        return makeError(file, "", "cannot replace the file: " + ec.message(), "a writable folder");
    }
    return {};
}

Result<void> writeFileAtomically(const std::filesystem::path& path, const std::string& text)
{
    return writeFileAtomically(path, [&text](std::ostream& out) {
        out.write(text.data(), static_cast<std::streamsize>(text.size()));
    });
}

} // namespace dct
