// --backend auto|emulator|gpu, shared by every command that runs kernels.
#pragma once

#include <memory>
#include <string>

#include "checker/backend.h"
#include "checker/util/expected.h"

namespace tilecamp::runner {

constexpr const char* k_backend_help =
    "where kernels run: auto (a GPU when one works, else the emulator), emulator, or gpu";

// The backend for `choice`; an Error names the choices, or says why a GPU cannot be used.
Expected<std::unique_ptr<Backend>> choose_backend(const std::string& choice);

}  // namespace tilecamp::runner
