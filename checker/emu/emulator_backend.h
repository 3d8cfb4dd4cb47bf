// The Backend that runs kernels on tilecamp's own SIMT emulator: always available, deterministic.
#pragma once

#include <memory>

#include "checker/backend/backend.h"

namespace tilecamp::emu {

class EmulatorBackend : public Backend {
 public:
  std::string name() const override { return "emulator"; }
  Status load(const std::string& ptx) override;
  const ptx::Module& module() const override { return *m_module; }
  Expected<LaunchOutcome> launch(const LaunchRequest& request) override;
  // The same, moving the request's buffers into the device instead of copying them (the sandbox
  // holds one copy of a large case, not two).
  Expected<LaunchOutcome> launch_owned(LaunchRequest request);
  std::unique_ptr<Backend> another() const override { return std::make_unique<EmulatorBackend>(); }

 private:
  std::unique_ptr<ptx::Module> m_module;
};

}  // namespace tilecamp::emu
