#version 330 core
// One triangle covering the viewport (no vertex buffer: draw 3 vertices with an empty VAO).
// The fragment shaders work in window coordinates (gl_FragCoord).
void main() {
  vec2 p = vec2(float((gl_VertexID & 1) << 2), float((gl_VertexID & 2) << 1));
  gl_Position = vec4(p - 1.0, 0.0, 1.0);
}
