#pragma once
// One reference on libgit2's global state. libgit2 counts its init and shutdown calls itself,
// so every open repository holds its own reference and no caller initialises anything
// process-wide (no global state of ours). Private to the library: <git2.h> stays out of
// include/benchhist/.

namespace benchhist::git {

// A value type: each copy is one more reference, released by its destructor.
class Library {
 public:
  Library() noexcept;
  ~Library();
  Library(const Library&) noexcept;
  Library& operator=(const Library&) noexcept { return *this; }  // both already hold one
};

}  // namespace benchhist::git
