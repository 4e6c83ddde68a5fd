#pragma once
// GitHub paginates list endpoints with an RFC 8288 `Link` header
// (`<https://api.github.com/repositories/1/issues?page=2>; rel="next", <…>; rel="last"`).
// The next page is fetched by following that URL verbatim — GitHub's links may use a
// different path form (`/repositories/<id>/…`) than the first request.

#include <optional>
#include <string>
#include <string_view>

namespace benchhist::publish {

// The target of the link whose `rel` parameter contains `next`, or nullopt when there is none
// (the last page, or no header). Tolerates whitespace, parameter order, unquoted rel values and
// several relation types in one rel (`rel="next last"`).
std::optional<std::string> next_page_url(std::string_view link_header);

}  // namespace benchhist::publish
