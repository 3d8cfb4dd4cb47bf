// What a TileFootprint recorded in the sandbox, as a frame (wire.h), for `tilecamp viz tiles`.
// Read from an untrusted child: bounded by the frame, every list checked to be sorted, unique and
// no longer than an observer keeps.
#pragma once

#include "checker/child/wire.h"
#include "checker/viz/tile_footprint.h"

namespace tilecamp::sandbox {

void write_footprint_target(child::MessageWriter& out, const viz::FootprintTarget& target);
Expected<viz::FootprintTarget> read_footprint_target(child::MessageReader& in);

void write_footprint(child::MessageWriter& out, const viz::Footprint& footprint);
Expected<viz::Footprint> read_footprint(child::MessageReader& in);

}  // namespace tilecamp::sandbox
