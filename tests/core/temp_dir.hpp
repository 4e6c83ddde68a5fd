#pragma once
// The core suite's temporary directories: the one shared TempDir (tests/common/files.hpp).

#include "common/files.hpp"
