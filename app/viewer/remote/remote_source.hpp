#pragma once
// The remote images (remote_images.hpp) as the viewer's panes show them: the pane source
// "remote:NAME", a remote image as a ForeignFile (foreign_map.hpp: a single-channel image is a
// scalar map, scored against the open data's truth like a foreign map file; 2..4 channels an
// RGBA8 image), the sidecar's description, and the headless wait of --until-remote N.
// No GL, no ImGui (the app uploads and draws).
#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "foreign_map.hpp"
#include "remote_images.hpp"

namespace lb::viewer::remote {

inline constexpr const char* kSourcePrefix = "remote:";

// "remote:NAME" (the prefix in any case, spaces around the whole trimmed): true with *name set
// (the rest, as sent: a name may hold colons). Throws lb::Error when the name is empty.
bool parse_remote_spec(const std::string& spec, std::string* name);
std::string remote_spec(const std::string& name);  // "remote:NAME"
// Whether a pane's file text names a remote image (the prefix, in any case, after spaces), and
// which ("" when it does not, or names none). Never throw: for the pane's editable file field.
bool is_remote_spec(const std::string& text);
std::string remote_name_of(const std::string& text);

// One channel: a map (is_map; NaN / inf stay invalid; lo/hi its finite range). Otherwise an
// RGBA8 image: channels named R, G, B, A (or Y / L for grey; a tev layer prefix "layer.R"
// counts as R) go to their slot, values in 0..1 as tev shows them (clamped, NaN = 0; no alpha
// channel: opaque); channels with none of those names fill R, G, B, A in their order.
ForeignFile to_foreign_file(const RemoteImage& img);

// The sidecar's description of a pane showing remote:NAME: name, channels, size, version,
// complete, and for a map its range (scores come from the pane's ForeignScore, as for files).
nlohmann::json remote_json(const RemoteImage& img);

// --until-remote N [--remote-timeout S]: how the headless run stands after `elapsed_s` with
// `received` images in (RemoteImages::received()).
enum class UntilRemote { Waiting, Done, TimedOut };
UntilRemote until_remote(std::size_t wanted, std::size_t received, double elapsed_s, double timeout_s);
// "--until-remote 3: 1 of 3 remote images arrived within 30 s" (the timeout's one line).
std::string until_remote_message(std::size_t wanted, std::size_t received, double timeout_s);

}  // namespace lb::viewer::remote
