#pragma once
// The probe suite's temporary directories: the one shared TempDir (tests/common/files.hpp).

#include "common/files.hpp"

namespace bh_test {
using benchhist::testing::TempDir;
}  // namespace bh_test
