#include "runner/backend_choice.h"

#include "checker/emu/emulator_backend.h"

namespace tilecamp::runner {

Expected<std::unique_ptr<Backend>> choose_backend(const std::string& choice) {
  if (choice == "auto" || choice == "emulator") {
    // This build has no GPU backend yet, so auto always means the emulator.
    return std::unique_ptr<Backend>(std::make_unique<emu::EmulatorBackend>());
  }
  if (choice == "gpu") {
    return make_error("--backend gpu: this build of tilecamp cannot run kernels on a GPU yet; "
                      "use --backend emulator (the default, auto, picks it)");
  }
  return make_error("--backend '" + choice + "': expected auto, emulator or gpu");
}

}  // namespace tilecamp::runner
