// One finding of the advisor, built the same way by every rule file (advise_rules_*.cc).
#ifndef REGION_SRC_ADVISE_FINDING_H_
#define REGION_SRC_ADVISE_FINDING_H_

#include <string>
#include <utility>

#include "region/advise.h"

namespace hfile::region {

inline Finding MakeFinding(std::string code, AdviceSeverity sev, std::string family,
                           std::string message, std::string fix) {
  Finding f;
  f.code = std::move(code);
  f.severity = sev;
  f.family = std::move(family);
  f.message = std::move(message);
  f.fix = std::move(fix);
  return f;
}

}  // namespace hfile::region

#endif  // REGION_SRC_ADVISE_FINDING_H_
