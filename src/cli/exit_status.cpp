#include "cli/commands.h"

namespace ur::cli {

int& exit_status() {
  static int status = 0;
  return status;
}

}  // namespace ur::cli
