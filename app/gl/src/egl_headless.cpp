#include "lightbench/gl/egl_headless.hpp"

#include <epoxy/egl.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "lightbench/gl/gl.hpp"

#ifndef EGL_CUDA_DEVICE_NV
#define EGL_CUDA_DEVICE_NV 0x323A
#endif

namespace lb::gl {
namespace {

bool has_ext(const char* list, const char* name) {
  if (!list) return false;
  const std::size_t n = std::strlen(name);
  for (const char* p = list; (p = std::strstr(p, name)) != nullptr; p += n)
    if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return true;
  return false;
}

std::string egl_error_name(EGLint e) {
  switch (e) {
    case EGL_SUCCESS: return "EGL_SUCCESS";
    case EGL_NOT_INITIALIZED: return "EGL_NOT_INITIALIZED";
    case EGL_BAD_ACCESS: return "EGL_BAD_ACCESS";
    case EGL_BAD_ALLOC: return "EGL_BAD_ALLOC";
    case EGL_BAD_ATTRIBUTE: return "EGL_BAD_ATTRIBUTE";
    case EGL_BAD_CONFIG: return "EGL_BAD_CONFIG";
    case EGL_BAD_CONTEXT: return "EGL_BAD_CONTEXT";
    case EGL_BAD_DISPLAY: return "EGL_BAD_DISPLAY";
    case EGL_BAD_MATCH: return "EGL_BAD_MATCH";
    case EGL_BAD_PARAMETER: return "EGL_BAD_PARAMETER";
    case EGL_BAD_SURFACE: return "EGL_BAD_SURFACE";
    default: return "EGL error " + std::to_string(e);
  }
}

struct Candidate {
  EGLDeviceEXT device;
  int index;
  bool nvidia;  // EGL_NV_device_cuda: an NVIDIA GPU usable by CUDA
  int cuda;     // its CUDA ordinal (-1: not known)
  std::string label;
};

}  // namespace

std::unique_ptr<HeadlessContext> HeadlessContext::create(const Options& opt, std::string* why) {
  auto fail = [&](const std::string& m) -> std::unique_ptr<HeadlessContext> {
    if (why) *why = m;
    return nullptr;
  };
  const char* client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  if (!client) return fail("EGL has no client extensions (no EGL 1.5 / EGL_EXT_client_extensions)");
  if (!has_ext(client, "EGL_EXT_device_enumeration") && !has_ext(client, "EGL_EXT_device_base"))
    return fail("EGL lacks EGL_EXT_device_enumeration");
  if (!has_ext(client, "EGL_EXT_platform_device"))
    return fail("EGL lacks EGL_EXT_platform_device");

  EGLint count = 0;
  EGLDeviceEXT devices[16];
  if (!eglQueryDevicesEXT(16, devices, &count) || count <= 0)
    return fail("no EGL device found (eglQueryDevicesEXT)");

  const bool can_query = has_ext(client, "EGL_EXT_device_query");
  std::vector<Candidate> cands;
  for (EGLint i = 0; i < count; ++i) {
    Candidate c{devices[i], i, false, -1, ""};
    const char* dev_ext = can_query ? eglQueryDeviceStringEXT(devices[i], EGL_EXTENSIONS) : nullptr;
    if (has_ext(dev_ext, "EGL_NV_device_cuda")) {
      c.nvidia = true;
      EGLAttrib attr = -1;
      if (eglQueryDeviceAttribEXT(devices[i], EGL_CUDA_DEVICE_NV, &attr)) c.cuda = static_cast<int>(attr);
    }
    if (c.nvidia)
      c.label = c.cuda >= 0 ? "NVIDIA, CUDA device " + std::to_string(c.cuda) : "NVIDIA";
    else if (has_ext(dev_ext, "EGL_MESA_device_software")) c.label = "Mesa software";
    else if (has_ext(dev_ext, "EGL_EXT_device_drm")) {
      const char* f = eglQueryDeviceStringEXT(devices[i], EGL_DRM_DEVICE_FILE_EXT);
      c.label = std::string("DRM ") + (f ? f : "?");
    } else {
      c.label = "unknown";
    }
    // Some drivers do not list EGL_NV_device_cuda for their devices (seen on an H200 with
    // driver 580): only devices known to be something else are skipped here; an unidentified
    // one is checked by its GL vendor once a context exists.
    if (opt.require_cuda_device && !c.nvidia && c.label != "unknown") continue;
    cands.push_back(c);
  }
  // The CUDA device we want first, then other CUDA devices, then the rest.
  std::stable_sort(cands.begin(), cands.end(), [&](const Candidate& a, const Candidate& b) {
    auto rank = [&](const Candidate& c) {
      return c.nvidia && c.cuda >= 0 && c.cuda == opt.cuda_device ? 0 : (c.nvidia ? 1 : 2);
    };
    return rank(a) < rank(b);
  });
  if (cands.empty())
    return fail(std::to_string(count) + " EGL device(s), none of them a CUDA device");

  std::string tried;
  for (const Candidate& c : cands) {
    auto note = [&](const std::string& m) {
      tried += (tried.empty() ? "" : "; ") + std::string("device ") + std::to_string(c.index) +
               " (" + c.label + "): " + m;
    };
    EGLDisplay dpy = eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, c.device, nullptr);
    EGLint major = 0, minor = 0;
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, &major, &minor)) {
      note("eglInitialize failed, " + egl_error_name(eglGetError()));
      continue;
    }
    const EGLint cfg_attr[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
                               EGL_OPENGL_BIT,   EGL_RED_SIZE,    8,
                               EGL_GREEN_SIZE,   8,               EGL_BLUE_SIZE,
                               8,                EGL_ALPHA_SIZE,  8,
                               EGL_NONE};
    EGLConfig cfg = nullptr;
    EGLint ncfg = 0;
    if (!eglChooseConfig(dpy, cfg_attr, &cfg, 1, &ncfg) || ncfg < 1) {
      note("no RGBA8 pbuffer OpenGL config");
      eglTerminate(dpy);
      continue;
    }
    const EGLint pb_attr[] = {EGL_WIDTH, opt.pbuffer_width, EGL_HEIGHT, opt.pbuffer_height, EGL_NONE};
    EGLSurface surf = eglCreatePbufferSurface(dpy, cfg, pb_attr);
    if (surf == EGL_NO_SURFACE) {
      note("eglCreatePbufferSurface failed, " + egl_error_name(eglGetError()));
      eglTerminate(dpy);
      continue;
    }
    if (!eglBindAPI(EGL_OPENGL_API)) {
      note("eglBindAPI(EGL_OPENGL_API) failed");
      eglDestroySurface(dpy, surf);
      eglTerminate(dpy);
      continue;
    }
    const EGLint ctx_attr[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                               EGL_CONTEXT_OPENGL_PROFILE_MASK,
                               EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, ctx_attr);
    if (ctx == EGL_NO_CONTEXT) {
      note("no OpenGL 3.3 core context, " + egl_error_name(eglGetError()));
      eglDestroySurface(dpy, surf);
      eglTerminate(dpy);
      continue;
    }
    if (!eglMakeCurrent(dpy, surf, surf, ctx)) {
      note("eglMakeCurrent failed, " + egl_error_name(eglGetError()));
      eglDestroyContext(dpy, ctx);
      eglDestroySurface(dpy, surf);
      eglTerminate(dpy);
      continue;
    }
    if (opt.require_cuda_device && !c.nvidia) {
      const char* vendor = reinterpret_cast<const char*>(glGetString(GL_VENDOR));
      if (!vendor || std::string(vendor).find("NVIDIA") == std::string::npos) {
        note(std::string("GL vendor '") + (vendor ? vendor : "?") + "' is not NVIDIA");
        eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        eglDestroyContext(dpy, ctx);
        eglDestroySurface(dpy, surf);
        eglTerminate(dpy);
        continue;
      }
    }
    std::unique_ptr<HeadlessContext> h(new HeadlessContext());
    h->display_ = dpy;
    h->surface_ = surf;
    h->context_ = ctx;
    h->cuda_device_ = c.cuda;
    clear_errors();
    h->description_ = "EGL device " + std::to_string(c.index) + " (" + c.label + "): " +
                      context_description();
    return h;
  }
  return fail("no usable EGL device: " + tried);
}

HeadlessContext::~HeadlessContext() {
  auto dpy = static_cast<EGLDisplay>(display_);
  if (!dpy) return;
  eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  if (context_) eglDestroyContext(dpy, static_cast<EGLContext>(context_));
  if (surface_) eglDestroySurface(dpy, static_cast<EGLSurface>(surface_));
  eglTerminate(dpy);
}

void HeadlessContext::make_current() {
  eglMakeCurrent(static_cast<EGLDisplay>(display_), static_cast<EGLSurface>(surface_),
                 static_cast<EGLSurface>(surface_), static_cast<EGLContext>(context_));
}

}  // namespace lb::gl
