// RFC 8288 Link header: the rel="next" target (GitHub REST pagination).

#include "benchhist/publish/link_header.hpp"

#include "benchhist/model/ascii.hpp"

namespace benchhist::publish {

std::optional<std::string> next_page_url(std::string_view header) {
  std::size_t pos = 0;
  while (pos < header.size()) {
    const auto open = header.find('<', pos);
    if (open == std::string_view::npos) return std::nullopt;
    const auto close = header.find('>', open + 1);
    if (close == std::string_view::npos) return std::nullopt;
    const std::string_view target = header.substr(open + 1, close - open - 1);
    // Parameters run up to the next link, i.e. the next '<' (URLs cannot contain one unescaped).
    auto params_end = header.find('<', close + 1);
    std::string_view params = header.substr(close + 1, params_end == std::string_view::npos ? std::string_view::npos
                                                                                             : params_end - close - 1);
    pos = params_end == std::string_view::npos ? header.size() : params_end;
    std::size_t p = 0;
    while (p < params.size()) {
      auto semi = params.find(';', p);
      if (semi == std::string_view::npos) break;
      auto next = params.find(';', semi + 1);
      std::string_view param = ascii::trim(
          params.substr(semi + 1, next == std::string_view::npos ? std::string_view::npos : next - semi - 1));
      // A trailing ',' separates links; it is not part of the parameter.
      while (!param.empty() && (param.back() == ',' || ascii::is_space(param.back()))) param.remove_suffix(1);
      p = next == std::string_view::npos ? params.size() : next;
      const auto eq = param.find('=');
      if (eq == std::string_view::npos) continue;
      if (!ascii::iequals(ascii::trim(param.substr(0, eq)), "rel")) continue;
      std::string_view value = ascii::trim(param.substr(eq + 1));
      if (value.size() >= 2 && value.front() == '"' && value.back() == '"') value = value.substr(1, value.size() - 2);
      // rel may carry several space-separated relation types.
      std::size_t v = 0;
      while (v < value.size()) {
        while (v < value.size() && ascii::is_space(value[v])) ++v;
        std::size_t e = v;
        while (e < value.size() && !ascii::is_space(value[e])) ++e;
        if (ascii::iequals(value.substr(v, e - v), "next")) return std::string(target);
        v = e;
      }
    }
  }
  return std::nullopt;
}

}  // namespace benchhist::publish
