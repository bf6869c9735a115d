#include "figures.h"

// Contract stub: the formatting rule lands with the model work of issue 5. formatBytes is
// defined in quantity.cpp (declared in both headers); a second stub here broke the link.
namespace fleet::model {

std::string formatCount(std::int64_t n) { return std::to_string(n); }
std::string formatCpuMillicores(std::int64_t millicores) { return std::to_string(millicores) + "m"; }
std::string formatGpuMilli(std::int64_t gpuMilli) { return std::to_string(gpuMilli) + "m GPU"; }
std::string formatShare(double share) { return share != share ? "n/a" : std::to_string(share * 100) + "%"; }
std::string formatDollarsPerHour(double dollars) { return "$" + std::to_string(dollars) + "/h"; }
std::string formatSignificant(double value) { return std::to_string(value); }

} // namespace fleet::model
