#include "dct/ui/scenariolibrarysource.h"

namespace dct::ui {

ScenarioLibrarySource::~ScenarioLibrarySource() = default;

QString ScenarioLibrarySource::filePath(const QString& id) const
{
    (void)id;
    return {};
}

} // namespace dct::ui
