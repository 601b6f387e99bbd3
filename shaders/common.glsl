// Bindings and built-ins that differ between the Vulkan and OpenGL SPIR-V
// builds of the same source. glslc defines VULKAN for --target-env=vulkan*.
#ifdef VULKAN
#define UBO(name) layout(std140, set = 0, binding = 0) uniform name
#define TEXTURE layout(set = 1, binding = 0) uniform sampler2D
#define VERTEX_ID gl_VertexIndex
#else
#define UBO(name) layout(std140, binding = 0) uniform name
#define TEXTURE layout(binding = 0) uniform sampler2D
#define VERTEX_ID gl_VertexID
#endif
