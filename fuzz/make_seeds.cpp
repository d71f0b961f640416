// Writes the seed corpora of every harness into OUT/<harness>/: small valid inputs made by the
// project's own writers (save_image, save_pfm, save_scene, the bundled assets), so no binary
// seed is checked in. Usage: fuzz_make_seeds OUT
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "harnesses.hpp"
#include "lightbench/assets.hpp"
#include "lightbench/generator.hpp"
#include "lightbench/image_io.hpp"
#include "lightbench/scene_file.hpp"

namespace fs = std::filesystem;
using Bytes = std::vector<std::uint8_t>;

namespace {
fs::path g_tmp;

Bytes slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return Bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

void put(const fs::path& dir, const std::string& name, const Bytes& b) {
  fs::create_directories(dir);
  std::ofstream f(dir / name, std::ios::binary);
  f.write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

lb::ImageU8 pattern(int w, int h, int c, int salt = 0) {
  lb::ImageU8 img(w, h, c);
  for (std::size_t i = 0; i < img.data.size(); ++i)
    img.data[i] = static_cast<std::uint8_t>((i * 37 + salt * 11) & 255);
  return img;
}

// The encoded bytes of an image, through save_image (format from the extension).
Bytes encode(const lb::ImageU8& img, const std::string& ext) {
  const fs::path p = g_tmp / ("seed" + ext);
  lb::save_image(p.string(), img);
  return slurp(p);
}

Bytes encode_pfm(int w, int h, int c) {
  lb::ImageF img(w, h, c);
  for (std::size_t i = 0; i < img.data.size(); ++i) img.data[i] = 0.25f * static_cast<float>(i % 7);
  const fs::path p = g_tmp / "seed.pfm";
  lb::save_pfm(p.string(), img);
  return slurp(p);
}

Bytes text(const std::string& s) { return Bytes(s.begin(), s.end()); }
}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: fuzz_make_seeds OUT\n");
    return 2;
  }
  const fs::path out = argv[1];
  g_tmp = out / ".tmp";
  fs::create_directories(g_tmp);
  try {
    // image: every format the sniffing accepts, 1..4 channels.
    const fs::path img = out / "image";
    put(img, "gray.png", encode(pattern(5, 3, 1), ".png"));
    put(img, "rgb.png", encode(pattern(4, 4, 3), ".png"));
    put(img, "rgba.png", encode(pattern(3, 5, 4), ".png"));
    put(img, "rgb.jpg", encode(pattern(8, 8, 3), ".jpg"));
    put(img, "gray.jpg", encode(pattern(9, 7, 1), ".jpg"));
    put(img, "rgb.bmp", encode(pattern(5, 4, 3), ".bmp"));
    put(img, "rgba.bmp", encode(pattern(3, 3, 4), ".bmp"));
    put(img, "gray.pgm", encode(pattern(4, 3, 1), ".pgm"));
    put(img, "rgb.ppm", encode(pattern(3, 4, 3), ".ppm"));
    // pfm
    put(out / "pfm", "gray.pfm", encode_pfm(4, 3, 1));
    put(out / "pfm", "rgb.pfm", encode_pfm(3, 2, 3));
    put(out / "pfm", "bigendian.pfm", text(std::string("Pf\n2 1\n1.0\n") + std::string("\x3f\x80\0\0\x40\0\0\0", 8)));
    // pnm: the option byte (bit 0: P6; bits 1-2: channels wanted) replaces the magic.
    {
      Bytes pgm = encode(pattern(4, 3, 1), ".pgm"), ppm = encode(pattern(3, 2, 3), ".ppm");
      pgm[1] = 0, ppm[1] = 1;
      put(out / "pnm", "gray", Bytes(pgm.begin() + 1, pgm.end()));
      put(out / "pnm", "rgb", Bytes(ppm.begin() + 1, ppm.end()));
      put(out / "pnm", "rgb16", text(std::string("\x07\n2 1 65535\n") + std::string("\1\2\3\4\5\6\7\x08\x09\x0a\x0b\x0c", 12)));
    }
    // scene: the JSON that save_scene writes for the tiny preset (the harness's folder holds
    // raw.png and truth.pfm).
    {
      const fs::path dir = g_tmp / "scene";
      put(out / "scene", "tiny.json",
          slurp(lb::save_scene(dir.string(), lb::generate_scene(lb::generator_preset("tiny"), 1))));
      put(out / "scene", "no_truth.json",
          text(R"({"grid":{"nx":2,"ny":2,"pitch":4.0},"raw":"raw.png"})"));
    }
    // assets: the kind byte, then every bundled asset's text.
    {
      // (kind byte 4: plenoptic_hex, the harness's bit 2.)
      const char* kinds[5] = {"plenoptic", "lightfield", "stereo", "mad", "plenoptic_hex"};
      for (int k = 0; k < 5; ++k)
        for (const auto& name : lb::asset_names(kinds[k])) {
          Bytes b{static_cast<std::uint8_t>(k)};
          const auto t = lb::read_asset(kinds[k], name).text;
          b.insert(b.end(), t.begin(), t.end());
          put(out / "assets", std::string(kinds[k]) + "_" + name, b);
        }
    }
    // lightfield: the three layouts, tiny views, with and without ground truth.
    {
      using Files = std::vector<std::pair<std::string, Bytes>>;
      Files uv, numbered, hci;
      for (int v = 0; v < 2; ++v)
        for (int u = 0; u < 2; ++u) {
          uv.push_back({"view_" + std::to_string(u) + "_" + std::to_string(v) + ".ppm",
                        encode(pattern(4, 3, 3, u + 2 * v), ".ppm")});
          numbered.push_back({std::to_string(v * 2 + u) + ".png", encode(pattern(4, 3, 3, u + 2 * v), ".png")});
        }
      for (int i = 0; i < 4; ++i)
        hci.push_back({"input_Cam00" + std::to_string(i) + ".bmp", encode(pattern(3, 3, 3, i), ".bmp")});
      Files uv_gt = uv;
      uv_gt.push_back({"gt_disp_lowres.pfm", encode_pfm(4, 3, 1)});
      put(out / "lightfield", "uv", lb::fuzz::pack_folder(0, uv));
      put(out / "lightfield", "uv_gt", lb::fuzz::pack_folder(1, uv_gt));
      put(out / "lightfield", "numbered", lb::fuzz::pack_folder(0, numbered));
      put(out / "lightfield", "numbered_grid", lb::fuzz::pack_folder(2 | (1 << 2) | (1 << 4), numbered));
      put(out / "lightfield", "hci", lb::fuzz::pack_folder(1, hci));
    }
    // stereo: a Middlebury folder (pair, truth, masks), 8-bit and PFM truth.
    {
      using Files = std::vector<std::pair<std::string, Bytes>>;
      const Files pair{{"imL.png", encode(pattern(6, 4, 1, 1), ".png")},
                       {"imR.png", encode(pattern(6, 4, 1, 2), ".png")}};
      Files full = pair;
      full.push_back({"groundtruth.png", encode(pattern(6, 4, 1, 3), ".png")});
      full.push_back({"mask_nonocc.png", encode(pattern(6, 4, 1, 4), ".png")});
      full.push_back({"mask_all.png", encode(pattern(6, 4, 1, 5), ".png")});
      full.push_back({"mask_disc.png", encode(pattern(6, 4, 1, 6), ".png")});
      // PPM bytes under .png names: the format is decided by the first bytes.
      Files rgb{{"imL.png", encode(pattern(5, 3, 3, 1), ".ppm")},
                {"imR.png", encode(pattern(5, 3, 3, 2), ".ppm")},
                {"groundtruth.png", encode(pattern(5, 3, 3, 3), ".bmp")}};
      put(out / "stereo", "pair", lb::fuzz::pack_folder(1, pair));
      put(out / "stereo", "full", lb::fuzz::pack_folder(3, full));
      put(out / "stereo", "rgb", lb::fuzz::pack_folder(2, rgb));
    }
    // image16: 16-bit PNG (grey, RGB, grey + alpha) by save_png16, 8-bit PNG by save_image.
    {
      const auto png16 = [](int w, int h, int c) {
        lb::ImageU16 img(w, h, c);
        for (std::size_t i = 0; i < img.data.size(); ++i) img.data[i] = static_cast<std::uint16_t>(i * 2731);
        const fs::path p = g_tmp / "seed16.png";
        lb::save_png16(p.string(), img);
        return slurp(p);
      };
      put(out / "image16", "gray16.png", png16(5, 3, 1));
      put(out / "image16", "rgb16.png", png16(3, 4, 3));
      put(out / "image16", "ga16.png", png16(2, 2, 2));
      put(out / "image16", "gray8.png", encode(pattern(4, 3, 1), ".png"));
      put(out / "image16", "rgba8.png", encode(pattern(3, 3, 4), ".png"));
    }
    // dataset_text: the parser byte, then a TID2013 mos_with_names.txt, a KADID-10k dmos.csv,
    // a Middlebury 2014 calib.txt.
    {
      const auto with = [](std::uint8_t k, const std::string& t) {
        Bytes b{k};
        b.insert(b.end(), t.begin(), t.end());
        return b;
      };
      put(out / "dataset_text", "tid", with(0, "5.51429 i01_01_1.bmp\r\n4.5 I01_02_1.BMP\n6 i25_24_5.bmp\n"));
      put(out / "dataset_text", "kadid",
          with(1, "dist_img,ref_img,dmos,var\nI01_01_01.png,I01.png,4.57,0.496\nI01_01_02.png,I01.png,4.33,0.869\n"));
      put(out / "dataset_text", "kadid3", with(1, "dist_img,ref_img,dmos\nI01_01_01.png,I01.png,4.57\n"));
      put(out / "dataset_text", "calib",
          with(2, "cam0=[3997.684 0 1176.728; 0 3997.684 1011.728; 0 0 1]\ncam1=[3997.684 0 1307.839; 0 "
                  "3997.684 1011.728; 0 0 1]\ndoffs=131.111\nbaseline=193.001\nwidth=2964\nheight=1988\n"
                  "ndisp=280\nisint=0\nvmin=31\nvmax=257\n"));
    }
    // raytrix_calib: a RayCalibData file of the R42 crop's structure (three lens types), and a
    // single-type one without a sub-grid.
    {
      const std::string head =
          "<RayCalibData version=\"1.0\"><offset units=\"pix\"><x>17.76</x><y>14.9</y></offset>"
          "<diameter units=\"pix\">34.86</diameter><rotation units=\"rad\">0</rotation>"
          "<lens_border units=\"pix\">1</lens_border><tcp units=\"virtual_depth\">2.18</tcp>"
          "<lens_base_x units=\"lens\"><x>1</x><y>0</y></lens_base_x>"
          "<lens_base_y units=\"lens\"><x>0.5</x><y>-0.866025388241</y></lens_base_y>";
      std::string three = head +
          "<sub_grid_base units=\"lens\"><x>3</x><y>-1.732050776482</y></sub_grid_base>"
          "<distortion type=\"radial\"><function>constant</function><parameter count=\"0\">0</parameter>"
          "</distortion>";
      const char* offsets[3] = {"<x>0</x><y>0</y>", "<x>1</x><y>0</y>", "<x>-1</x><y>0</y>"};
      const char* ranges[3] = {"<min>1</min><max>3</max>", "<min>2.8</min><max>4</max>",
                               "<min>3.8</min><max>100</max>"};
      for (int t = 0; t < 3; ++t)
        three += "<lens_type id=\"" + std::to_string(t) + "\"><offset units=\"lens\">" + offsets[t] +
                 "</offset><depth_range units=\"virtual_depth\">" + ranges[t] + "</depth_range></lens_type>";
      three += "</RayCalibData>\n";
      put(out / "raytrix_calib", "three_types.xml", Bytes(three.begin(), three.end()));
      const std::string one = head + "</RayCalibData>\n";
      put(out / "raytrix_calib", "one_type.xml", Bytes(one.begin(), one.end()));
    }
    // csv: the option byte (bit 0: read as a resume file), then a batch CSV: quoted fields
    // with commas, quotes and line breaks, CRLF, a torn last row.
    {
      const std::string head =
          "scene,algorithm,variant,params,mask,bad100,rms,map,error,open_ms,compute_ms,score_ms,write_ms\n";
      const std::string rows =
          "s0,stereo-bp,,ndisp=8,all,12.5,1.25,s0.pfm,,1,2,3,4\n"
          "s0,stereo-bp,,ndisp=8,nonocc,10,1,s0.pfm,,1,2,3,4\n"
          "\"s,1\",stereo-local,fused2,ndisp=8;radius=3,,,,,\"'im0.png': bad \"\"magic\"\"\nline 2\",0.5,,,\n";
      const auto with = [](std::uint8_t k, const std::string& t) {
        Bytes b{k};
        b.insert(b.end(), t.begin(), t.end());
        return b;
      };
      put(out / "csv", "merge", with(0, head + rows));
      put(out / "csv", "resume", with(1, head + rows));
      put(out / "csv", "resume_torn", with(1, head + rows + "s2,stereo-bp,,nd"));
      put(out / "csv", "torn_quote", with(1, head + rows + "s2,stereo-bp,,\"ndisp"));
      put(out / "csv", "crlf", with(0, "a,b\r\n1,\"x\r\ny\"\r\n\r\n"));
      put(out / "csv", "bom", with(0, "\xEF\xBB\xBFname,score\n\"\",1\n"));
    }
    // scores: `eval --scores` lists, with and without a header.
    put(out / "scores", "header", text("name,score\nI01_01_1.bmp,3.25\ni01_02_1,-1e-3\n\"a,b.bmp\",7\n"));
    put(out / "scores", "bare", text("i01_01_1.bmp,1\r\ni01_01_2.bmp,2.5,extra\r\n"));
    // hci_cfg: parameters.cfg as the HCI benchmark writes it (the harness's folder holds 3x3 views).
    put(out / "hci_cfg", "benchmark",
        text("[intrinsics]\nfocal_length_mm = 100\n\n[extrinsics]\nnum_cams_x = 3\nnum_cams_y = 3\n"
             "baseline_mm = 90\n\n[meta]\ndisp_min = -1.5\ndisp_max = 1.5\nframes = 1\n"));
    put(out / "hci_cfg", "crlf", text("num_cams_x = 3\r\nnum_cams_y = 3\r\n"));
    put(out / "hci_cfg", "nine", text("num_cams_x = 9\nnum_cams_y = 9\n"));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz_make_seeds: %s\n", e.what());
    return 1;
  }
  std::error_code ec;
  fs::remove_all(g_tmp, ec);
  return 0;
}
