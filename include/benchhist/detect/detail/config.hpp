#pragma once
// How the detection core is built. By default its functions are compiled once into
// libbenchhist (lib/detect, at -O3). Define BENCHHIST_HEADER_ONLY before including any
// benchhist header (or pass -DBENCHHIST_HEADER_ONLY) to use the detection core — model value
// types, detectors, gates, Benjamini–Hochberg and the census — with only `-I include`: every
// public header then pulls in its implementation from detect/detail/ and the functions are
// inline, with no link step and no dependency beyond the standard library and threads.
// Use one mode per program (like {fmt}'s FMT_HEADER_ONLY).

#ifdef BENCHHIST_HEADER_ONLY
#define BENCHHIST_DETECT_INLINE inline
#else
#define BENCHHIST_DETECT_INLINE
#endif
