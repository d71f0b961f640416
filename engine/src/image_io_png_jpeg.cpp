// PNG through libpng and JPEG through libjpeg-turbo (Debian's builds, fuzzed upstream), in
// place of stb's decoders. Both libraries report errors through callbacks that longjmp back
// into a function here; those functions (the ones calling setjmp) hold only trivially
// destructible locals, and every C++ allocation happens between them, so no longjmp ever
// crosses a C++ destructor. Warnings are silent (libpng) or fatal (libjpeg: a corrupt or cut
// JPEG is refused, never filled in); nothing is printed, nothing exits.
#include <climits>
#include <csetjmp>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <png.h>
// jpeglib.h needs size_t and FILE declared first.
#include <jpeglib.h>
#include <jerror.h>

#include "image_io_internal.hpp"

namespace lb::image_io_detail {
namespace {

// ------------------------------------------------------------------ PNG ----

constexpr png_uint_32 kMaxSide = 65536;  // as for the other formats

struct PngState {
  const unsigned char* data = nullptr;
  std::size_t size = 0;
  std::size_t pos = 0;
  std::string* sink = nullptr;  // writing
  char msg[256] = {0};
};

void png_on_error(png_structp png, png_const_charp m) {
  auto* st = static_cast<PngState*>(png_get_error_ptr(png));
  std::snprintf(st->msg, sizeof st->msg, "%s", m && *m ? m : "libpng gave no reason");
  png_longjmp(png, 1);
}
void png_on_warning(png_structp, png_const_charp) {}

void png_read_mem(png_structp png, png_bytep out, png_size_t n) {
  auto* st = static_cast<PngState*>(png_get_io_ptr(png));
  if (n > st->size - st->pos) png_error(png, "file ends early (truncated)");
  std::memcpy(out, st->data + st->pos, n);
  st->pos += n;
}

struct PngHeader {
  png_uint_32 w = 0, h = 0;
  int depth = 0, color = 0;
  int channels = 0;            // after our transforms
  png_size_t rowbytes = 0;     // after our transforms
  int palette_entries = 0;     // colour type 3
  png_byte palette[256][4];    // RGBA
};

// Phase 1: the header, limits set first. Returns false with st.msg on error.
bool png_phase_header(png_structp png, png_infop info, PngHeader& hd) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_set_user_limits(png, kMaxSide, kMaxSide);
  png_set_chunk_malloc_max(png, 8u << 20);  // ancillary chunks (zTXt, iCCP bombs)
  png_set_chunk_cache_max(png, 256);
  png_read_info(png, info);
  hd.w = png_get_image_width(png, info);
  hd.h = png_get_image_height(png, info);
  hd.depth = png_get_bit_depth(png, info);
  hd.color = png_get_color_type(png, info);
  return true;
}

// Phase 2: the transforms (no gamma, no scaling: the file's values), then the row layout.
bool png_phase_transforms(png_structp png, png_infop info, PngHeader& hd) {
  if (setjmp(png_jmpbuf(png))) return false;
  if (hd.color == PNG_COLOR_TYPE_PALETTE) {
    // Indices only (one byte each); mapped through the palette by the caller, which checks
    // every index against the palette's length.
    png_colorp pal = nullptr;
    int n = 0;
    if (!png_get_PLTE(png, info, &pal, &n) || n < 1) png_error(png, "palette image without a PLTE chunk");
    png_bytep trns = nullptr;
    int ntrns = 0;
    png_color_16p unused = nullptr;
    if (!png_get_tRNS(png, info, &trns, &ntrns, &unused)) ntrns = 0;
    hd.palette_entries = n > 256 ? 256 : n;
    for (int i = 0; i < hd.palette_entries; ++i) {
      hd.palette[i][0] = pal[i].red;
      hd.palette[i][1] = pal[i].green;
      hd.palette[i][2] = pal[i].blue;
      hd.palette[i][3] = i < ntrns ? trns[i] : 255;
    }
    hd.channels = ntrns > 0 ? 4 : 3;
    if (hd.depth < 8) png_set_packing(png);
  } else {
    if (hd.color == PNG_COLOR_TYPE_GRAY && hd.depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if (hd.depth == 16) {
      const std::uint16_t one = 1;
      unsigned char first = 0;
      std::memcpy(&first, &one, 1);
      if (first == 1) png_set_swap(png);  // little-endian host: native 16-bit samples
    }
  }
  png_set_interlace_handling(png);
  png_read_update_info(png, info);
  if (hd.color != PNG_COLOR_TYPE_PALETTE) hd.channels = png_get_channels(png, info);
  hd.rowbytes = png_get_rowbytes(png, info);
  return true;
}

// Phase 3: every row, then the chunks up to IEND (a file cut after its image data is refused).
bool png_phase_rows(png_structp png, png_infop info, png_bytepp rows) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_read_image(png, rows);
  png_read_end(png, info);
  return true;
}

struct PngReader {
  PngState st;
  png_structp png = nullptr;
  png_infop info = nullptr;
  PngHeader hd{};
  PngReader(const std::string& path, const std::vector<unsigned char>& b) {
    st.data = b.data();
    st.size = b.size();
    png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &st, png_on_error, png_on_warning);
    if (png) info = png_create_info_struct(png);
    if (!png || !info) {
      png_destroy_read_struct(png ? &png : nullptr, nullptr, nullptr);
      io_fail(path, "libpng could not start (out of memory)");
    }
    png_set_read_fn(png, &st, png_read_mem);
  }
  ~PngReader() { png_destroy_read_struct(&png, &info, nullptr); }
  PngReader(const PngReader&) = delete;
  PngReader& operator=(const PngReader&) = delete;

  [[noreturn]] void fail(const std::string& path) {
    io_fail(path, std::string("corrupt PNG (") + st.msg + ")");
  }

  // Header, limits and layout; refuses 16-bit samples unless `allow16`.
  void start(const std::string& path, std::uint64_t limit, bool allow16) {
    if (!png_phase_header(png, info, hd)) fail(path);
    check_pixels(path, hd.w, hd.h, limit);
    if (hd.depth == 16 && !allow16) {
      const char* kind = hd.color == PNG_COLOR_TYPE_GRAY         ? "grey"
                         : hd.color == PNG_COLOR_TYPE_GRAY_ALPHA ? "grey+alpha"
                         : hd.color == PNG_COLOR_TYPE_RGB        ? "RGB"
                                                                 : "RGBA";
      io_fail(path, "16-bit PNG (" + std::string(kind) + ", " + std::to_string(hd.w) + "x" +
                        std::to_string(hd.h) + "): this input takes 8-bit images and will not "
                        "cut it to 8 bits (read it at full depth with load_image16)");
    }
    if (!png_phase_transforms(png, info, hd)) fail(path);
    const std::size_t bytes_per = hd.depth == 16 ? 2 : 1;
    const int ch = hd.color == PNG_COLOR_TYPE_PALETTE ? 1 : hd.channels;
    if (ch < 1 || ch > 4 || hd.rowbytes != static_cast<std::size_t>(hd.w) * ch * bytes_per)
      io_fail(path, "corrupt PNG (unexpected row layout)");
  }

  // Rows into `buf` (rowbytes * h bytes).
  void read_rows(const std::string& path, unsigned char* buf) {
    std::vector<png_bytep> rows(hd.h);
    for (png_uint_32 y = 0; y < hd.h; ++y) rows[y] = buf + static_cast<std::size_t>(y) * hd.rowbytes;
    if (!png_phase_rows(png, info, rows.data())) fail(path);
  }

  // Palette indices (one byte a pixel) to RGB / RGBA, every index checked.
  ImageU8 map_palette(const std::string& path, const std::vector<unsigned char>& idx) {
    ImageU8 out(static_cast<int>(hd.w), static_cast<int>(hd.h), hd.channels);
    for (std::size_t i = 0; i < idx.size(); ++i) {
      const int k = idx[i];
      if (k >= hd.palette_entries)
        io_fail(path, "corrupt PNG: palette index " + std::to_string(k) + " at pixel (" +
                          std::to_string(i % hd.w) + ", " + std::to_string(i / hd.w) +
                          ") is past the palette's " + std::to_string(hd.palette_entries) + " entries");
      std::memcpy(&out.data[i * hd.channels], hd.palette[k], static_cast<std::size_t>(hd.channels));
    }
    return out;
  }

  ImageU8 read8(const std::string& path) {
    if (hd.color == PNG_COLOR_TYPE_PALETTE) {
      std::vector<unsigned char> idx(static_cast<std::size_t>(hd.w) * hd.h);
      read_rows(path, idx.data());
      return map_palette(path, idx);
    }
    ImageU8 out(static_cast<int>(hd.w), static_cast<int>(hd.h), hd.channels);
    read_rows(path, out.data.data());
    return out;
  }
};

}  // namespace

ImageU8 decode_png(const std::string& path, const std::vector<unsigned char>& bytes,
                   std::uint64_t limit) {
  PngReader r(path, bytes);
  r.start(path, limit, false);
  return r.read8(path);
}

ImageU16 decode_png16(const std::string& path, const std::vector<unsigned char>& bytes,
                      std::uint64_t limit, int* bit_depth) {
  PngReader r(path, bytes);
  r.start(path, limit, true);
  if (bit_depth) *bit_depth = r.hd.depth;
  if (r.hd.depth == 16) {
    ImageU16 out(static_cast<int>(r.hd.w), static_cast<int>(r.hd.h), r.hd.channels);
    r.read_rows(path, reinterpret_cast<unsigned char*>(out.data.data()));
    return out;
  }
  const ImageU8 in = r.read8(path);
  ImageU16 out(in.width, in.height, in.channels);
  for (std::size_t i = 0; i < in.data.size(); ++i) out.data[i] = in.data[i];
  return out;
}

namespace {
void png_write_mem(png_structp png, png_bytep data, png_size_t n) {
  auto* st = static_cast<PngState*>(png_get_io_ptr(png));
  try {
    st->sink->append(reinterpret_cast<const char*>(data), n);
  } catch (...) {
    png_error(png, "out of memory");
  }
}
void png_flush_mem(png_structp) {}

bool png_phase_write(png_structp png, png_infop info, png_uint_32 w, png_uint_32 h, int color,
                     png_bytepp rows) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_set_IHDR(png, info, w, h, 16, color, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  const std::uint16_t one = 1;
  unsigned char first = 0;
  std::memcpy(&first, &one, 1);
  if (first == 1) png_set_swap(png);
  png_write_image(png, rows);
  png_write_end(png, nullptr);
  return true;
}
}  // namespace

std::string encode_png16(const std::string& path, const ImageU16& img) {
  PngState st;
  std::string out;
  st.sink = &out;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &st, png_on_error, png_on_warning);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  if (!png || !info) {
    png_destroy_write_struct(png ? &png : nullptr, nullptr);
    io_fail(path, "libpng could not start (out of memory)");
  }
  png_set_write_fn(png, &st, png_write_mem, png_flush_mem);
  const int color = img.channels == 1   ? PNG_COLOR_TYPE_GRAY
                    : img.channels == 2 ? PNG_COLOR_TYPE_GRAY_ALPHA
                    : img.channels == 3 ? PNG_COLOR_TYPE_RGB
                                        : PNG_COLOR_TYPE_RGB_ALPHA;
  std::vector<png_bytep> rows(static_cast<std::size_t>(img.height));
  auto* base = reinterpret_cast<unsigned char*>(const_cast<std::uint16_t*>(img.data.data()));
  for (int y = 0; y < img.height; ++y)
    rows[y] = base + static_cast<std::size_t>(y) * img.width * img.channels * 2;
  const bool ok = png_phase_write(png, info, static_cast<png_uint_32>(img.width),
                                  static_cast<png_uint_32>(img.height), color, rows.data());
  png_destroy_write_struct(&png, &info);
  if (!ok) io_fail(path, std::string("PNG encoding failed (") + st.msg + ")");
  return out;
}

// ----------------------------------------------------------------- JPEG ----
namespace {

// Progressive JPEGs of many scans are a known decode bomb (each scan walks every block);
// real encoders use about 10.
constexpr int kMaxJpegScans = 100;

struct JpegState {
  jpeg_error_mgr err;  // first: libjpeg's cinfo->err points here
  jpeg_progress_mgr progress;
  std::jmp_buf jump;
  char msg[JMSG_LENGTH_MAX + 64] = {0};
};

void jpeg_on_error(j_common_ptr c) {
  auto* st = reinterpret_cast<JpegState*>(c->err);
  (*c->err->format_message)(c, st->msg);
  std::longjmp(st->jump, 1);
}

// Warnings (level -1) are fatal, except the harmless ones: libjpeg's warnings are how it reports
// corrupt or missing entropy-coded data, which it would otherwise fill in.
void jpeg_on_message(j_common_ptr c, int level) {
  if (level >= 0) return;  // trace messages
  const int code = c->err->msg_code;
  if (code == JWRN_JFIF_MAJOR || code == JWRN_ADOBE_XFORM) return;
  jpeg_on_error(c);
}
void jpeg_on_output(j_common_ptr) {}

void jpeg_on_progress(j_common_ptr c) {
  if (!c->is_decompressor) return;
  auto* d = reinterpret_cast<j_decompress_ptr>(c);
  if (d->input_scan_number > kMaxJpegScans) {
    auto* st = reinterpret_cast<JpegState*>(c->err);
    std::snprintf(st->msg, sizeof st->msg, "more than %d scans, a decompression bomb", kMaxJpegScans);
    std::longjmp(st->jump, 1);
  }
}

bool jpeg_phase_header(jpeg_decompress_struct& cinfo, JpegState& st, const unsigned char* data,
                       unsigned long size) {
  if (setjmp(st.jump)) return false;
  jpeg_create_decompress(&cinfo);
  cinfo.progress = &st.progress;
  jpeg_mem_src(&cinfo, data, size);
  jpeg_read_header(&cinfo, TRUE);
  return true;
}

bool jpeg_phase_start(jpeg_decompress_struct& cinfo, JpegState& st, long max_memory) {
  if (setjmp(st.jump)) return false;
  cinfo.mem->max_memory_to_use = max_memory;
  if (cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK) {
    std::snprintf(st.msg, sizeof st.msg, "CMYK JPEG is not supported");
    return false;
  }
  cinfo.out_color_space = cinfo.num_components == 1 ? JCS_GRAYSCALE : JCS_RGB;
  jpeg_start_decompress(&cinfo);
  return true;
}

bool jpeg_phase_rows(jpeg_decompress_struct& cinfo, JpegState& st, unsigned char* buf,
                     std::size_t stride) {
  if (setjmp(st.jump)) return false;
  while (cinfo.output_scanline < cinfo.output_height) {
    JSAMPROW row = buf + static_cast<std::size_t>(cinfo.output_scanline) * stride;
    if (jpeg_read_scanlines(&cinfo, &row, 1) != 1) {
      std::snprintf(st.msg, sizeof st.msg, "decoder stopped early");
      return false;
    }
  }
  jpeg_finish_decompress(&cinfo);
  return true;
}

struct JpegReader {
  JpegState st;
  jpeg_decompress_struct cinfo;
  bool created = false;
  JpegReader() {
    std::memset(&cinfo, 0, sizeof cinfo);
    cinfo.err = jpeg_std_error(&st.err);
    st.err.error_exit = jpeg_on_error;
    st.err.emit_message = jpeg_on_message;
    st.err.output_message = jpeg_on_output;
    st.progress.progress_monitor = jpeg_on_progress;
  }
  ~JpegReader() {
    if (created) jpeg_destroy_decompress(&cinfo);
  }
  JpegReader(const JpegReader&) = delete;
  JpegReader& operator=(const JpegReader&) = delete;
};

}  // namespace

ImageU8 decode_jpeg(const std::string& path, const std::vector<unsigned char>& b,
                    std::uint64_t limit) {
  JpegReader r;
  r.created = true;  // jpeg_create_decompress runs first in the header phase; destroy is safe after
  const auto fail = [&](const char* what) {
    io_fail(path, std::string(what) + " (" + r.st.msg + ")");
  };
  if (!jpeg_phase_header(r.cinfo, r.st, b.data(), static_cast<unsigned long>(b.size())))
    fail("not a readable JPEG");
  const std::uint64_t w = r.cinfo.image_width, h = r.cinfo.image_height;
  check_pixels(path, w, h, limit);
  // Every 8x8 block of the full-resolution component costs at least one bit in any
  // Huffman-coded JPEG: a file of fewer bits than blocks declares more than it holds.
  const std::uint64_t blocks = (w + 7) / 8 * ((h + 7) / 8);
  if (static_cast<std::uint64_t>(b.size()) * 8 < blocks)
    io_fail(path, "truncated JPEG: " + std::to_string(b.size()) + " bytes cannot hold the " +
                      std::to_string(w) + "x" + std::to_string(h) + " image its header declares");
  // libjpeg's own working memory (progressive files keep every coefficient: 2 bytes per
  // sample) is bounded by the pixel budget; beyond it the decoder stops with an error.
  const std::uint64_t budget = limit * 8 + (64u << 20);
  const long max_memory = budget > static_cast<std::uint64_t>(LONG_MAX) ? LONG_MAX : static_cast<long>(budget);
  if (!jpeg_phase_start(r.cinfo, r.st, max_memory)) fail("not a readable JPEG");
  const int ch = r.cinfo.output_components;
  if (ch != 1 && ch != 3) io_fail(path, "unsupported JPEG (" + std::to_string(ch) + " channels)");
  ImageU8 out(static_cast<int>(r.cinfo.output_width), static_cast<int>(r.cinfo.output_height), ch);
  if (!jpeg_phase_rows(r.cinfo, r.st, out.data.data(), static_cast<std::size_t>(out.width) * ch))
    fail("corrupt JPEG");
  return out;
}

bool png_jpeg_info(const unsigned char* d, std::size_t n, int& w, int& h, int& channels) {
  if (n >= 33 && std::memcmp(d, "\x89PNG\r\n\x1a\n", 8) == 0 && std::memcmp(d + 12, "IHDR", 4) == 0) {
    const auto be = [&](std::size_t at) {
      return (static_cast<std::uint32_t>(d[at]) << 24) | (static_cast<std::uint32_t>(d[at + 1]) << 16) |
             (static_cast<std::uint32_t>(d[at + 2]) << 8) | d[at + 3];
    };
    const std::uint32_t pw = be(16), ph = be(20);
    if (pw == 0 || ph == 0 || pw > kMaxSide || ph > kMaxSide) return false;
    const int color = d[25];
    channels = color == 0 ? 1 : color == 4 ? 2 : color == 2 ? 3 : (color == 3 || color == 6) ? 4 : 0;
    if (!channels) return false;
    w = static_cast<int>(pw);
    h = static_cast<int>(ph);
    return true;
  }
  if (n >= 3 && d[0] == 0xff && d[1] == 0xd8 && d[2] == 0xff) {
    JpegReader r;
    r.created = true;
    if (!jpeg_phase_header(r.cinfo, r.st, d, static_cast<unsigned long>(n))) return false;
    if (r.cinfo.image_width < 1 || r.cinfo.image_height < 1) return false;
    w = static_cast<int>(r.cinfo.image_width);
    h = static_cast<int>(r.cinfo.image_height);
    channels = r.cinfo.num_components == 1 ? 1 : 3;
    return true;
  }
  return false;
}

}  // namespace lb::image_io_detail
