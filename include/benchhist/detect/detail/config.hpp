#pragma once
// How the detection core is built. By default its functions are compiled once into
// libbenchhist (lib/detect, at -O3). Define BENCHHIST_HEADER_ONLY before including any
// benchhist header (or pass -DBENCHHIST_HEADER_ONLY) to use the detection core — model value
// types, detectors, gates, Benjamini–Hochberg and the census — with only `-I include`: every
// public header then pulls in its implementation from detect/detail/ and the functions are
// inline, with no link step and no dependency beyond the standard library and threads.
// Use one mode per program (like {fmt}'s FMT_HEADER_ONLY).

//
// BENCHHIST_DETECT_INLINE marks the definitions of the public functions. The private helpers
// sit between BENCHHIST_DETAIL_BEGIN and _END and are marked BENCHHIST_DETAIL_INLINE: inline
// in header-only mode, and in the compiled library an unnamed namespace with plain functions,
// as each helper is seen by one library source — internal linkage leaves the optimiser free to
// inline and specialise them (the detector's speed depends on it). The parts tests also include
// (scatter.hpp, orbit_group.hpp, analytic_bound.hpp) stay `inline` so unused ones do not warn.

#ifdef BENCHHIST_HEADER_ONLY
#define BENCHHIST_DETECT_INLINE inline
#define BENCHHIST_DETAIL_INLINE inline
#define BENCHHIST_DETAIL_BEGIN
#define BENCHHIST_DETAIL_END
#else
#define BENCHHIST_DETECT_INLINE
#define BENCHHIST_DETAIL_INLINE
#define BENCHHIST_DETAIL_BEGIN namespace {
#define BENCHHIST_DETAIL_END }
#endif
