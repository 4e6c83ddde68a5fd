// A List Blobs page (docs/formats.md#azure-backend): either the page's names and marker, which
// written back as an EnumerationResults document (escaped, some names Encoded) parse to the same
// page, or Error{network} naming the container.

#include "benchhist/azure/responses.hpp"
#include "fuzz_support.hpp"

namespace {

std::string xml_escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string percent_encode(std::string_view s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    out += '%';
    out += hex[c >> 4];
    out += hex[c & 15];
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  constexpr std::string_view container = "bench-history";
  benchhist::azure::BlobListPage page;
  try {
    page = benchhist::azure::parse_list_blobs_page(fuzz::as_view(data, size), container);
  } catch (const benchhist::Error& e) {
    fuzz::check(e.kind() == benchhist::ErrorKind::network, "a listing failed with a kind other than network", e.what());
    fuzz::check_names(e, container);
    return 0;
  }
  std::string doc = "<?xml version=\"1.0\" encoding=\"utf-8\"?><EnumerationResults ContainerName=\"x\"><Blobs>";
  for (std::size_t i = 0; i < page.names.size(); ++i) {
    const auto& n = page.names[i];
    // Names that are not valid XML text go Encoded, as the service does.
    if (i % 2) doc += "<Blob><Name Encoded=\"true\">" + percent_encode(n) + "</Name><Properties/></Blob>";
    else doc += "<Blob><Name>" + xml_escape(n) + "</Name></Blob>";
  }
  doc += "</Blobs>";
  if (!page.next_marker.empty()) doc += "<NextMarker>" + xml_escape(page.next_marker) + "</NextMarker>";
  doc += "</EnumerationResults>";
  try {
    const auto back = benchhist::azure::parse_list_blobs_page(doc, container);
    fuzz::check(back == page, "a parsed listing written back parses differently", doc);
  } catch (const benchhist::Error& e) {
    fuzz::fail("a parsed listing written back does not parse", std::string(e.what()) + "\n" + doc);
  }
  return 0;
}
