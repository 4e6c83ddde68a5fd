#pragma once
// 128-bit integers for exact intermediate products (GCC/Clang extension).

namespace benchhist::detect::detail {
__extension__ typedef unsigned __int128 u128;
__extension__ typedef __int128 i128;
}  // namespace benchhist::detect::detail
