// api/http/content_coding.cc

#include "api/http/content_coding.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <climits>
#include <limits>

#include "api/http/header_text.h"

namespace dynarock::api::http {
namespace {

// zlib's window bits: 15 (MAX_WBITS) reads and writes the zlib format;
// +16 the gzip format.
constexpr int kDeflateWindowBits = MAX_WBITS;
constexpr int kGzipWindowBits = 16 + MAX_WBITS;
// The first output buffer; it doubles from there, so a small body never
// costs a large allocation and a large one is copied O(log n) times.
constexpr size_t kFirstOutputBytes = 16 * 1024;
// zlib counts in uInt; larger inputs are fed in pieces of this size.
constexpr size_t kMaxZlibChunk = size_t{1} << 30;

// Whether `rest` begins a gzip member: magic bytes 1f 8b, method 8
// (deflate), and room for the 10-byte header. This is what Java's
// GZIPInputStream checks before it reads a further member.
bool BeginsGzipMember(std::string_view rest) {
  return rest.size() >= 10 && static_cast<unsigned char>(rest[0]) == 0x1f &&
         static_cast<unsigned char>(rest[1]) == 0x8b &&
         static_cast<unsigned char>(rest[2]) == 8;
}

// Owns a z_stream set up for inflating; zlib's C API needs the cleanup.
class Inflater {
 public:
  explicit Inflater(int window_bits) {
    ok_ = inflateInit2(&stream_, window_bits) == Z_OK;
  }
  ~Inflater() {
    if (ok_) inflateEnd(&stream_);
  }
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;

  bool ok() const { return ok_; }
  z_stream* stream() { return &stream_; }

 private:
  z_stream stream_{};
  bool ok_ = false;
};

// Input left to feed: what zlib holds plus what it has not been given.
size_t InputLeft(const z_stream& zs, std::string_view pending) {
  return zs.avail_in + pending.size();
}

// Gives zlib up to kMaxZlibChunk more bytes from `pending` once it has used
// what it held.
void Refill(z_stream* zs, std::string_view* pending) {
  if (zs->avail_in > 0 || pending->empty()) return;
  const size_t n = std::min(pending->size(), kMaxZlibChunk);
  zs->next_in = reinterpret_cast<Bytef*>(const_cast<char*>(pending->data()));
  zs->avail_in = static_cast<uInt>(n);
  pending->remove_prefix(n);
}

// The bytes from zlib's position on, for looking at what follows a member.
std::string_view Rest(const z_stream& zs, std::string_view pending,
                      std::string_view encoded) {
  const size_t left = InputLeft(zs, pending);
  return encoded.substr(encoded.size() - left);
}

DecodedBody Fail(DecodeError error) {
  DecodedBody result;
  result.error = error;
  return result;
}

DecodedBody Inflate(bool gzip, std::string_view encoded, size_t max_bytes,
                    const std::function<bool(size_t)>& grow) {
  if (encoded.empty()) return Fail(DecodeError::kCorrupt);
  Inflater inflater(gzip ? kGzipWindowBits : kDeflateWindowBits);
  if (!inflater.ok()) return Fail(DecodeError::kRefused);
  z_stream* zs = inflater.stream();
  std::string_view pending = encoded;
  // One byte beyond the limit is room enough to see that it is passed.
  const size_t capacity_limit =
      max_bytes == std::numeric_limits<size_t>::max() ? max_bytes : max_bytes + 1;
  std::string out;
  size_t produced = 0;
  for (;;) {
    if (produced == out.size()) {
      if (out.size() >= capacity_limit) return Fail(DecodeError::kTooLarge);
      const size_t next =
          std::min(capacity_limit, std::max(kFirstOutputBytes, out.size() * 2));
      if (grow && !grow(next)) return Fail(DecodeError::kRefused);
      out.resize(next);
    }
    Refill(zs, &pending);
    const size_t room = std::min(out.size() - produced, kMaxZlibChunk);
    zs->next_out = reinterpret_cast<Bytef*>(out.data() + produced);
    zs->avail_out = static_cast<uInt>(room);
    const int rc = inflate(zs, Z_NO_FLUSH);
    produced += room - zs->avail_out;
    if (produced > max_bytes) return Fail(DecodeError::kTooLarge);
    if (rc == Z_STREAM_END) {
      // Another gzip member may follow; anything else after the data is
      // ignored, as Java's GZIPInputStream and InflaterInputStream do.
      if (!gzip || !BeginsGzipMember(Rest(*zs, pending, encoded))) break;
      if (inflateReset(zs) != Z_OK) return Fail(DecodeError::kCorrupt);
      continue;
    }
    if (rc == Z_OK) continue;
    // No progress: output space is refilled above; input that has run out
    // before the end of the stream is a truncated body.
    if (rc == Z_BUF_ERROR && zs->avail_out == 0) continue;
    return Fail(DecodeError::kCorrupt);
  }
  out.resize(produced);
  DecodedBody result;
  result.body = std::move(out);
  return result;
}

// The slots of ChooseResponseCoding's table.
enum Slot { kGzipSlot = 0, kDeflateSlot = 1, kAnySlot = 2, kSlots = 3 };

std::optional<Slot> SlotOf(std::string_view name) {
  if (EqualsIgnoreCase(name, "gzip")) return kGzipSlot;
  if (EqualsIgnoreCase(name, "deflate")) return kDeflateSlot;
  if (name == "*") return kAnySlot;
  return std::nullopt;  // "identity" too: DynamoDB ignores it
}

// The quality of an Accept-Encoding entry, from its parameters (the text
// after the coding name): the first one containing "q=" whose rest parses
// as a whole number, clamped to [0, 1]; 1 when there is none.
float QualityOf(std::string_view params) {
  while (!params.empty()) {
    const size_t semi = params.find(';');
    std::string_view param = params.substr(0, semi);
    params = semi == std::string_view::npos ? std::string_view()
                                            : params.substr(semi + 1);
    const size_t q = param.find("q=");
    if (q == std::string_view::npos) continue;
    const std::string_view text = TrimWhitespace(param.substr(q + 2));
    float value = 0;
    const auto [end, ec] =
        std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size()) continue;
    if (!(value > 0)) return 0;  // negative, zero and NaN
    return std::min(value, 1.0f);
  }
  return 1;
}

ContentCoding CodingOf(Slot slot) {
  return slot == kGzipSlot ? ContentCoding::kGzip : ContentCoding::kDeflate;
}

}  // namespace

std::string_view ContentCodingName(ContentCoding coding) {
  switch (coding) {
    case ContentCoding::kGzip:
      return "gzip";
    case ContentCoding::kDeflate:
      return "deflate";
    case ContentCoding::kIdentity:
      break;
  }
  return "";
}

std::optional<ContentCoding> ParseContentEncoding(
    std::optional<std::string_view> value) {
  if (!value) return ContentCoding::kIdentity;
  const std::string_view name = TrimWhitespace(*value);
  if (name.empty() || EqualsIgnoreCase(name, "identity")) {
    return ContentCoding::kIdentity;
  }
  if (EqualsIgnoreCase(name, "gzip")) return ContentCoding::kGzip;
  if (EqualsIgnoreCase(name, "deflate")) return ContentCoding::kDeflate;
  return std::nullopt;
}

DecodedBody DecodeBody(ContentCoding coding, std::string_view encoded,
                       size_t max_bytes,
                       const std::function<bool(size_t)>& grow) {
  if (coding != ContentCoding::kIdentity) {
    return Inflate(coding == ContentCoding::kGzip, encoded, max_bytes, grow);
  }
  if (encoded.size() > max_bytes) return Fail(DecodeError::kTooLarge);
  if (grow && !grow(encoded.size())) return Fail(DecodeError::kRefused);
  DecodedBody result;
  result.body = std::string(encoded);
  return result;
}

ContentCoding ChooseResponseCoding(std::string_view accept_encoding,
                                   size_t body_bytes) {
  if (body_bytes < kMinCompressedResponseBytes) return ContentCoding::kIdentity;
  // Quality per slot, once named; the best entry so far must beat a
  // quality just above 0, so that q=0 is never chosen.
  std::array<std::optional<float>, kSlots> quality;
  std::optional<Slot> best;
  float best_quality = std::numeric_limits<float>::min();
  while (!accept_encoding.empty()) {
    const size_t comma = accept_encoding.find(',');
    const std::string_view entry = accept_encoding.substr(0, comma);
    accept_encoding = comma == std::string_view::npos
                          ? std::string_view()
                          : accept_encoding.substr(comma + 1);
    const size_t semi = entry.find(';');
    const std::optional<Slot> slot =
        SlotOf(TrimWhitespace(entry.substr(0, semi)));
    if (!slot) continue;
    if (quality[*slot] && *quality[*slot] != 0) continue;  // named before
    const float q = semi == std::string_view::npos
                        ? 1.0f
                        : QualityOf(entry.substr(semi + 1));
    quality[*slot] = q;
    // A coding named after "*" takes its place at the same quality.
    const bool wins = best == kAnySlot ? q >= best_quality : q > best_quality;
    if (wins) {
      best = slot;
      best_quality = q;
    }
  }
  if (!best) return ContentCoding::kIdentity;
  if (*best != kAnySlot) return CodingOf(*best);
  // "*": a coding the header did not name, else the better named one.
  std::optional<Slot> chosen;
  float chosen_quality = std::numeric_limits<float>::min();
  for (Slot slot : {kGzipSlot, kDeflateSlot}) {
    if (!quality[slot]) return CodingOf(slot);
    if (*quality[slot] > chosen_quality) {
      chosen = slot;
      chosen_quality = *quality[slot];
    }
  }
  return chosen ? CodingOf(*chosen) : ContentCoding::kIdentity;
}

std::optional<std::string> EncodeBody(ContentCoding coding,
                                      std::string_view body) {
  if (coding == ContentCoding::kIdentity || body.size() > kMaxZlibChunk) {
    return std::nullopt;
  }
  z_stream zs{};
  const int window =
      coding == ContentCoding::kGzip ? kGzipWindowBits : kDeflateWindowBits;
  if (deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, window, 8,
                   Z_DEFAULT_STRATEGY) != Z_OK) {
    return std::nullopt;
  }
  // deflateBound is enough room for one Z_FINISH call to end the stream.
  std::string out(deflateBound(&zs, static_cast<uLong>(body.size())), '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(body.data()));
  zs.avail_in = static_cast<uInt>(body.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&zs, Z_FINISH);
  const size_t written = out.size() - zs.avail_out;
  deflateEnd(&zs);
  if (rc != Z_STREAM_END) return std::nullopt;
  out.resize(written);
  return out;
}

}  // namespace dynarock::api::http
