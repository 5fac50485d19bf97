#pragma once

// What the training validation tests share: the bundled catalog with the models that exist only
// as the shapes a published benchmark ran.
#include "dct/model/error.h"
#include "testsupport.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <unistd.h>
#include <vector>

namespace dct::test {

/** A dense transformer as a benchmark states it: FFN 4h, no gated MLP, no biases named. */
struct BenchmarkShape
{
    const char* id;
    const char* source;
    int heads, hidden, layers, vocab, sequence;
    bool tiedEmbeddings;
};

/** Returns the models.json entry of \a shape. */
inline nlohmann::json benchmarkModel(const BenchmarkShape& shape)
{
    return {{"id", shape.id},
            {"name", shape.id},
            {"source", shape.source},
            {"layers", shape.layers},
            {"hidden_size", shape.hidden},
            {"heads", shape.heads},
            {"ffn_hidden_size", 4 * shape.hidden},
            {"vocab_size", shape.vocab},
            {"sequence_length", shape.sequence},
            {"gated_mlp", false},
            {"tied_embeddings", shape.tiedEmbeddings}};
}

/**
 * Copies the bundled catalog to the temporary folder \a folder (the process id appended), adds
 * \a shapes to its models and loads it. Load once per test binary: keep the result in a static
 * and pass it to loadedCatalog().
 */
inline Result<model::Catalog> catalogWithBenchmarkModels(const std::string& folder,
                                                         const std::vector<BenchmarkShape>& shapes)
{
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / (folder + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::copy(dataDir() / "catalog", dir, std::filesystem::copy_options::recursive);
    std::ifstream in(dir / "models.json");
    nlohmann::json models = nlohmann::json::parse(in);
    in.close();
    for (const BenchmarkShape& shape : shapes)
        models["entries"].push_back(benchmarkModel(shape));
    std::ofstream(dir / "models.json") << models.dump(1);
    return model::Catalog::load(dir);
}

/** Returns the catalog \a loaded; fails the test when it did not load. */
inline const model::Catalog& loadedCatalog(const Result<model::Catalog>& loaded)
{
    if (!loaded)
        FAIL("catalog: " << loaded.error().toString());
    return *loaded;
}

} // namespace dct::test
