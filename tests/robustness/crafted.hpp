#pragma once
// Byte builders for crafted inputs (PNG with any header, a fixed-Huffman zlib bomb, BMP, PNM,
// PFM), all made at test time: the robustness suite holds no binary files.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace lbr {

using Bytes = std::string;

inline void put_be32(Bytes& v, std::uint32_t x) {
  for (int s = 24; s >= 0; s -= 8) v.push_back(static_cast<char>((x >> s) & 0xff));
}
inline void put_le32(Bytes& v, std::uint32_t x) {
  for (int s = 0; s < 32; s += 8) v.push_back(static_cast<char>((x >> s) & 0xff));
}
inline void put_le16(Bytes& v, std::uint32_t x) {
  v.push_back(static_cast<char>(x & 0xff));
  v.push_back(static_cast<char>((x >> 8) & 0xff));
}

inline std::uint32_t crc32(const Bytes& d, std::size_t from) {
  std::uint32_t c = 0xffffffffu;
  for (std::size_t i = from; i < d.size(); ++i) {
    c ^= static_cast<unsigned char>(d[i]);
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1u)));
  }
  return ~c;
}

inline void png_chunk(Bytes& out, const char* type, const Bytes& data) {
  put_be32(out, static_cast<std::uint32_t>(data.size()));
  const std::size_t start = out.size();
  out += type;
  out += data;
  put_be32(out, crc32(out, start));
}

inline std::uint32_t adler32(const Bytes& raw) {
  std::uint32_t a = 1, b = 0;
  for (char ch : raw) {
    a = (a + static_cast<unsigned char>(ch)) % 65521;
    b = (b + a) % 65521;
  }
  return b << 16 | a;
}

// zlib stream of stored (uncompressed) deflate blocks.
inline Bytes zlib_stored(const Bytes& raw) {
  Bytes z = {0x78, 0x01};
  std::size_t pos = 0;
  do {
    const std::size_t n = std::min<std::size_t>(65535, raw.size() - pos);
    z.push_back(pos + n == raw.size() ? 1 : 0);
    put_le16(z, static_cast<std::uint32_t>(n));
    put_le16(z, static_cast<std::uint32_t>(~n & 0xffff));
    z += raw.substr(pos, n);
    pos += n;
  } while (pos < raw.size());
  put_be32(z, adler32(raw));
  return z;
}

// zlib stream of `n` zero bytes in one fixed-Huffman block: a literal 0, then (length 258,
// distance 1) copies, 13 bits per 258 bytes (a ~1000:1 bomb).
inline Bytes zlib_zeros(std::uint64_t n) {
  Bytes z = {0x78, 0x01};
  std::uint64_t acc = 0;
  int bits = 0;
  auto put = [&](std::uint32_t v, int len) {  // LSB-first
    acc |= static_cast<std::uint64_t>(v) << bits;
    bits += len;
    while (bits >= 8) {
      z.push_back(static_cast<char>(acc & 0xff));
      acc >>= 8;
      bits -= 8;
    }
  };
  auto huff = [&](std::uint32_t code, int len) {  // Huffman codes go MSB-first
    std::uint32_t r = 0;
    for (int i = 0; i < len; ++i) r |= ((code >> i) & 1u) << (len - 1 - i);
    put(r, len);
  };
  put(1, 1);  // final
  put(1, 2);  // fixed Huffman
  std::uint64_t left = n;
  if (left > 0) {
    huff(0x30, 8);  // literal 0
    --left;
  }
  while (left >= 258) {
    huff(0xc5, 8);  // length 258 (code 285)
    huff(0, 5);     // distance 1
    left -= 258;
  }
  while (left > 0) {
    huff(0x30, 8);
    --left;
  }
  huff(0, 7);  // end of block (256)
  if (bits > 0) put(0, 8 - bits);
  // Adler-32 of n zeros: a stays 1, b = n mod 65521 (libpng checks it).
  put_be32(z, static_cast<std::uint32_t>((n % 65521) << 16 | 1));
  return z;
}

inline Bytes png_header(std::uint32_t w, std::uint32_t h, int depth, int color) {
  Bytes out("\x89PNG\r\n\x1a\n", 8);
  Bytes ihdr;
  put_be32(ihdr, w);
  put_be32(ihdr, h);
  ihdr.push_back(static_cast<char>(depth));
  ihdr.push_back(static_cast<char>(color));
  ihdr.append(3, '\0');
  png_chunk(out, "IHDR", ihdr);
  return out;
}

// A PNG of `w` x `h` from packed rows (without filter bytes); palette as RGB triples.
inline Bytes make_png(std::uint32_t w, std::uint32_t h, int depth, int color, const Bytes& rows,
                      const Bytes& plte = {}, const Bytes& trns = {}) {
  Bytes out = png_header(w, h, depth, color);
  if (!plte.empty()) png_chunk(out, "PLTE", plte);
  if (!trns.empty()) png_chunk(out, "tRNS", trns);
  const int ch = color == 0 ? 1 : color == 2 ? 3 : color == 3 ? 1 : color == 4 ? 2 : 4;
  const std::size_t row_bytes = (static_cast<std::size_t>(w) * ch * depth + 7) / 8;
  Bytes raw;
  for (std::uint32_t y = 0; y < h; ++y) {
    raw.push_back(0);
    raw += rows.substr(y * row_bytes, row_bytes);
  }
  png_chunk(out, "IDAT", zlib_stored(raw));
  png_chunk(out, "IEND", {});
  return out;
}

// A PNG whose IHDR claims w x h, with an IDAT of `zeros` decompressed zero bytes.
inline Bytes png_bomb(std::uint32_t w, std::uint32_t h, int depth, int color, std::uint64_t zeros) {
  Bytes out = png_header(w, h, depth, color);
  png_chunk(out, "IDAT", zlib_zeros(zeros));
  png_chunk(out, "IEND", {});
  return out;
}

struct Bmp {
  std::int32_t w = 1, h = 1;
  std::uint32_t bpp = 24, compression = 0, hsz = 40, planes = 1;
  std::vector<std::uint32_t> palette;
  std::vector<std::uint32_t> masks;
  Bytes pixels;
  std::int64_t offset = -1;
};

inline Bytes make_bmp(const Bmp& s) {
  Bytes info;
  put_le32(info, s.hsz);
  put_le32(info, static_cast<std::uint32_t>(s.w));
  put_le32(info, static_cast<std::uint32_t>(s.h));
  put_le16(info, s.planes);
  put_le16(info, s.bpp);
  put_le32(info, s.compression);
  put_le32(info, static_cast<std::uint32_t>(s.pixels.size()));
  for (int k = 0; k < 4; ++k) put_le32(info, k < 2 ? 2835 : 0);
  while (info.size() < s.hsz && info.size() < 124) info.push_back(0);
  for (auto m : s.masks) put_le32(info, m);
  for (auto p : s.palette) put_le32(info, p);
  const std::uint32_t offset =
      s.offset >= 0 ? static_cast<std::uint32_t>(s.offset) : 14 + static_cast<std::uint32_t>(info.size());
  Bytes out = "BM";
  put_le32(out, static_cast<std::uint32_t>(14 + info.size() + s.pixels.size()));
  put_le32(out, 0);
  put_le32(out, offset);
  return out + info + s.pixels;
}

}  // namespace lbr
