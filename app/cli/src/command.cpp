#include "dct/cli/command.h"

namespace dct::cli {

// Out of line, so that the vtable of Command has one home.
Command::~Command() = default;

} // namespace dct::cli
