/* Vulkan instance, validation, physical device choice and the logical
 * device. Needs Vulkan 1.3 (dynamic rendering, synchronization2, host query
 * reset); says so and fails cleanly where a device lacks it. */
#include "vk_internal.h"

#include "../platform/window.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *vk_result_str(VkResult r)
{
	switch (r) {
#define C(x) \
	case x:  \
		return #x;
		C(VK_SUCCESS)
		C(VK_NOT_READY)
		C(VK_TIMEOUT)
		C(VK_SUBOPTIMAL_KHR)
		C(VK_ERROR_OUT_OF_HOST_MEMORY)
		C(VK_ERROR_OUT_OF_DEVICE_MEMORY)
		C(VK_ERROR_INITIALIZATION_FAILED)
		C(VK_ERROR_DEVICE_LOST)
		C(VK_ERROR_MEMORY_MAP_FAILED)
		C(VK_ERROR_LAYER_NOT_PRESENT)
		C(VK_ERROR_EXTENSION_NOT_PRESENT)
		C(VK_ERROR_FEATURE_NOT_PRESENT)
		C(VK_ERROR_INCOMPATIBLE_DRIVER)
		C(VK_ERROR_SURFACE_LOST_KHR)
		C(VK_ERROR_OUT_OF_DATE_KHR)
		C(VK_ERROR_NATIVE_WINDOW_IN_USE_KHR)
#undef C
	default: {
		static _Thread_local char buf[32];
		snprintf(buf, sizeof buf, "VkResult %d", (int)r);
		return buf;
	}
	}
}

eng_result vk_to_eng(VkResult r)
{
	switch (r) {
	case VK_ERROR_OUT_OF_HOST_MEMORY:
	case VK_ERROR_OUT_OF_DEVICE_MEMORY:
		return ENG_ERR_OUT_OF_MEMORY;
	case VK_ERROR_DEVICE_LOST:
		return ENG_ERR_DEVICE_LOST;
	case VK_ERROR_INCOMPATIBLE_DRIVER:
	case VK_ERROR_INITIALIZATION_FAILED:
	case VK_ERROR_LAYER_NOT_PRESENT:
		return ENG_ERR_NO_DRIVER;
	case VK_ERROR_EXTENSION_NOT_PRESENT:
	case VK_ERROR_FEATURE_NOT_PRESENT:
		return ENG_ERR_NO_DEVICE;
	case VK_ERROR_SURFACE_LOST_KHR:
	case VK_ERROR_NATIVE_WINDOW_IN_USE_KHR:
		return ENG_ERR_SURFACE;
	default:
		return ENG_ERR_INVALID;
	}
}

/* The layer's notes about the debugging extensions we enabled ourselves
 * ("specialuse-extension-debugging") are the one thing not counted. */
#define MSG_SPECIALUSE_DEBUGGING 0x822806fa

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
						 VkDebugUtilsMessageTypeFlagsEXT type,
						 const VkDebugUtilsMessengerCallbackDataEXT *data,
						 void *user)
{
	(void)type;
	vk_device *dev = user;
	/* And the layer's known false positive for flushed timing's waits in
	 * secondary command buffers (srcprof/vulkan.h). */
	if ((uint32_t)data->messageIdNumber == MSG_SPECIALUSE_DEBUGGING ||
	    (uint32_t)data->messageIdNumber == SRCPROF_VK_FALSE_POSITIVE_WAIT_EVENTS)
		return VK_FALSE;
	if (severity < VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT)
		return VK_FALSE;
	atomic_fetch_add(&dev->messages, 1);
	eng_log(severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT ? ENG_LOG_ERROR
									 : ENG_LOG_WARNING,
		"vulkan validation: %s", data->pMessage);
	return VK_FALSE;
}

static bool has_layer(const char *name)
{
	uint32_t n = 0;
	vkEnumerateInstanceLayerProperties(&n, NULL);
	VkLayerProperties *p = calloc(n ? n : 1, sizeof *p);
	vkEnumerateInstanceLayerProperties(&n, p);
	bool found = false;
	for (uint32_t i = 0; i < n && !found; i++)
		found = strcmp(p[i].layerName, name) == 0;
	free(p);
	return found;
}

#define VALIDATION_LAYER "VK_LAYER_KHRONOS_validation"

/* Whether the loader turns the validation layer on without being asked
 * (VK_INSTANCE_LAYERS, VK_LOADER_LAYERS_ENABLE, an implicit or override
 * layer): the layers active on a bare instance, which
 * vkEnumerateDeviceLayerProperties lists. Enabling it again would add our
 * debugging extensions, which its best-practices check then reports where
 * its own settings send reports. False where the probe cannot tell (no
 * driver, no device: the real instance fails the same way). The caller
 * destroys *probe (destroy_probe) once the real instance exists: destroyed
 * before, the loader would unload the driver and layers only to load them
 * again (and ASan builds could not name their allocations' libraries). */
static bool validation_enabled_outside(VkInstance *probe)
{
	VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
				 .apiVersion = VK_API_VERSION_1_3};
	VkInstanceCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
				   .pApplicationInfo = &app};
	if (vkCreateInstance(&ci, NULL, probe) != VK_SUCCESS) {
		*probe = VK_NULL_HANDLE;
		return false;
	}
	PFN_vkEnumeratePhysicalDevices devices = (PFN_vkEnumeratePhysicalDevices)
		vkGetInstanceProcAddr(*probe, "vkEnumeratePhysicalDevices");
	PFN_vkEnumerateDeviceLayerProperties active = (PFN_vkEnumerateDeviceLayerProperties)
		vkGetInstanceProcAddr(*probe, "vkEnumerateDeviceLayerProperties");
	bool found = false;
	uint32_t n = 0;
	if (devices && active && devices(*probe, &n, NULL) >= 0 && n) {
		VkPhysicalDevice *pds = calloc(n, sizeof *pds);
		uint32_t n_layers = 0;
		if (pds && devices(*probe, &n, pds) >= 0 && n &&
		    active(pds[0], &n_layers, NULL) >= 0) {
			VkLayerProperties *p = calloc(n_layers ? n_layers : 1, sizeof *p);
			if (p && active(pds[0], &n_layers, p) >= 0)
				for (uint32_t i = 0; i < n_layers && !found; i++)
					found = strcmp(p[i].layerName, VALIDATION_LAYER) == 0;
			free(p);
		}
		free(pds);
	}
	return found;
}

static void destroy_probe(VkInstance probe)
{
	PFN_vkDestroyInstance destroy =
		probe ? (PFN_vkDestroyInstance)vkGetInstanceProcAddr(probe, "vkDestroyInstance")
		      : NULL;
	if (destroy)
		destroy(probe, NULL);
}

/* Layer 1.3.239 takes the queue-submit check of synchronization validation
 * from its settings only (VK_LAYER_ENABLES or vk_layer_settings.txt;
 * VkValidationFeaturesEXT has no value for it) and reads them in
 * vkCreateInstance. So the instance is created with the check added to the
 * environment's list (':'-separated here), which is put back afterwards. */
#define LAYER_ENABLES_ENV "VK_LAYER_ENABLES"
#define QUEUE_SUBMIT_CHECK "VALIDATION_CHECK_ENABLE_SYNCHRONIZATION_VALIDATION_QUEUE_SUBMIT"

typedef struct saved_env {
	bool changed, had;
	char *value;
} saved_env;

static saved_env add_queue_submit_check(void)
{
	saved_env s = {0};
	const char *old = getenv(LAYER_ENABLES_ENV);
	s.had = old != NULL;
	if (s.had && !(s.value = strdup(old)))
		return s;
	size_t len = (old ? strlen(old) + 1 : 0) + sizeof QUEUE_SUBMIT_CHECK;
	char *v = malloc(len);
	if (!v) {
		free(s.value);
		s.value = NULL;
		return s;
	}
	snprintf(v, len, "%s%s%s", old ? old : "", old && *old ? ":" : "", QUEUE_SUBMIT_CHECK);
	s.changed = setenv(LAYER_ENABLES_ENV, v, 1) == 0;
	free(v);
	if (!s.changed)
		eng_warn("vulkan: validation runs without its queue-submit checks (cannot set %s)",
			 LAYER_ENABLES_ENV);
	return s;
}

static void restore_env(saved_env *s)
{
	if (s->changed) {
		if (s->had)
			setenv(LAYER_ENABLES_ENV, s->value, 1);
		else
			unsetenv(LAYER_ENABLES_ENV);
	}
	free(s->value);
	*s = (saved_env){0};
}

static eng_result create_instance(vk_device *dev, bool validate, bool need_surface)
{
	const char *exts[16];
	uint32_t n_exts = 0;
	if (need_surface) {
		uint32_t n = 0;
		const char *const *window_exts = eng_window_vk_extensions(&n);
		if (!window_exts)
			return ENG_ERR_SURFACE;
		for (uint32_t i = 0; i < n && n_exts < 12; i++)
			exts[n_exts++] = window_exts[i];
	}
	const char *layers[1];
	uint32_t n_layers = 0;
	VkValidationFeatureEnableEXT enables[] = {
		VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT,
		VK_VALIDATION_FEATURE_ENABLE_BEST_PRACTICES_EXT,
	};
	VkValidationFeaturesEXT features = {
		.sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT,
		.enabledValidationFeatureCount = 2,
		.pEnabledValidationFeatures = enables,
	};
	VkDebugUtilsMessengerCreateInfoEXT messenger = {
		.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
		.pNext = &features,
		.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
				   VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
		.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
			       VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
			       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
		.pfnUserCallback = on_message,
		.pUserData = dev,
	};
	VkInstance probe = VK_NULL_HANDLE;
	if (validate && validation_enabled_outside(&probe)) {
		eng_info("vulkan: " VALIDATION_LAYER " is already enabled from outside (environment "
			 "or loader settings); not enabling it again: its own settings say what it "
			 "checks and where it reports, and its messages are not counted here");
		validate = false;
	}
	if (validate) {
		if (!has_layer(VALIDATION_LAYER)) {
			eng_error("vulkan: --validate needs " VALIDATION_LAYER " (Debian: "
				  "apt-get install vulkan-validationlayers)");
			destroy_probe(probe);
			return ENG_ERR_NO_DRIVER;
		}
		layers[n_layers++] = VALIDATION_LAYER;
		exts[n_exts++] = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
		exts[n_exts++] = VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME;
	}
	VkApplicationInfo app = {
		.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
		.pApplicationName = "srcprof",
		.apiVersion = VK_API_VERSION_1_3,
	};
	VkInstanceCreateInfo ci = {
		.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
		.pNext = validate ? &messenger : NULL,
		.pApplicationInfo = &app,
		.enabledLayerCount = n_layers,
		.ppEnabledLayerNames = layers,
		.enabledExtensionCount = n_exts,
		.ppEnabledExtensionNames = exts,
	};
	saved_env env = {0};
	if (validate)
		env = add_queue_submit_check();
	VkResult r = vkCreateInstance(&ci, NULL, &dev->instance);
	restore_env(&env);
	destroy_probe(probe);
	if (r == VK_ERROR_INCOMPATIBLE_DRIVER) {
		eng_error("vulkan: no Vulkan 1.3 driver found (install mesa-vulkan-drivers for "
			  "lavapipe, or a GPU driver)");
		return ENG_ERR_NO_DRIVER;
	}
	VK_CHECK_RET(r);
	volkLoadInstanceOnly(dev->instance);
	if (validate) {
		messenger.pNext = NULL; /* the features chain is for instance creation only */
		VK_CHECK_RET(vkCreateDebugUtilsMessengerEXT(dev->instance, &messenger, NULL,
							    &dev->messenger));
	}
	return ENG_OK;
}

static bool has_device_ext(VkPhysicalDevice pd, const char *name)
{
	uint32_t n = 0;
	vkEnumerateDeviceExtensionProperties(pd, NULL, &n, NULL);
	VkExtensionProperties *p = calloc(n ? n : 1, sizeof *p);
	vkEnumerateDeviceExtensionProperties(pd, NULL, &n, p);
	bool found = false;
	for (uint32_t i = 0; i < n && !found; i++)
		found = strcmp(p[i].extensionName, name) == 0;
	free(p);
	return found;
}

/* A graphics queue family with timestamps, or UINT32_MAX. */
static uint32_t graphics_family(VkPhysicalDevice pd, uint32_t *valid_bits)
{
	uint32_t n = 0;
	vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, NULL);
	VkQueueFamilyProperties *q = calloc(n ? n : 1, sizeof *q);
	vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, q);
	uint32_t found = UINT32_MAX;
	for (uint32_t i = 0; i < n; i++) {
		if (q[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) {
			found = i;
			*valid_bits = q[i].timestampValidBits;
			break;
		}
	}
	free(q);
	return found;
}

/* Why `pd` cannot be used, or NULL. */
static const char *unsuitable(VkPhysicalDevice pd, bool need_surface)
{
	VkPhysicalDeviceProperties p;
	vkGetPhysicalDeviceProperties(pd, &p);
	if (p.apiVersion < VK_API_VERSION_1_3)
		return "Vulkan 1.3 required";
	uint32_t bits;
	if (graphics_family(pd, &bits) == UINT32_MAX)
		return "no graphics queue";
	if (need_surface && !has_device_ext(pd, VK_KHR_SWAPCHAIN_EXTENSION_NAME))
		return "no swapchain support";
	VkPhysicalDeviceVulkan12Features f12 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
	VkPhysicalDeviceVulkan13Features f13 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, .pNext = &f12};
	VkPhysicalDeviceFeatures2 f = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
				       .pNext = &f13};
	vkGetPhysicalDeviceFeatures2(pd, &f);
	if (!f13.dynamicRendering || !f13.synchronization2)
		return "no dynamic rendering / synchronization2";
	if (!f12.hostQueryReset)
		return "no host query reset";
	return NULL;
}

static int type_rank(VkPhysicalDeviceType t)
{
	switch (t) {
	case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
		return 4;
	case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
		return 3;
	case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
		return 2;
	case VK_PHYSICAL_DEVICE_TYPE_CPU:
		return 1;
	default:
		return 0;
	}
}

static eng_result pick_device(vk_device *dev, const char *want, bool need_surface)
{
	uint32_t n = 0;
	vkEnumeratePhysicalDevices(dev->instance, &n, NULL);
	if (!n) {
		eng_error("vulkan: no physical device (install mesa-vulkan-drivers for lavapipe)");
		return ENG_ERR_NO_DEVICE;
	}
	VkPhysicalDevice *pds = calloc(n, sizeof *pds);
	vkEnumeratePhysicalDevices(dev->instance, &n, pds);
	char *end = NULL;
	long want_index = want ? strtol(want, &end, 10) : -1;
	bool by_index = want && *want && end && *end == '\0';
	int best_rank = -1;
	VkPhysicalDevice best = VK_NULL_HANDLE;
	for (uint32_t i = 0; i < n; i++) {
		VkPhysicalDeviceProperties p;
		vkGetPhysicalDeviceProperties(pds[i], &p);
		const char *why = unsuitable(pds[i], need_surface);
		if (want && *want) {
			bool match = by_index ? (long)i == want_index : strstr(p.deviceName, want) != NULL;
			if (!match)
				continue;
			if (why) {
				eng_error("vulkan: device %u (%s) cannot be used: %s", i, p.deviceName,
					  why);
				free(pds);
				return ENG_ERR_NO_DEVICE;
			}
			best = pds[i];
			break;
		}
		if (why) {
			eng_info("vulkan: skipping device %u (%s): %s", i, p.deviceName, why);
			continue;
		}
		if (type_rank(p.deviceType) > best_rank) {
			best_rank = type_rank(p.deviceType);
			best = pds[i];
		}
	}
	if (!best) {
		if (want && *want) {
			/* Name them, so the user can pick one by index or name. */
			char names[512] = "";
			size_t used = 0;
			for (uint32_t i = 0; i < n && used < sizeof names; i++) {
				VkPhysicalDeviceProperties p;
				vkGetPhysicalDeviceProperties(pds[i], &p);
				int w = snprintf(names + used, sizeof names - used, "%s%u: %s",
						 i ? ", " : "", i, p.deviceName);
				used += w > 0 ? (size_t)w : 0;
			}
			eng_error("vulkan: no device matches --device %s (the %u devices: %s)", want, n,
				  names);
		} else {
			eng_error("vulkan: none of the %u devices is usable (need Vulkan 1.3 with a "
				  "graphics queue)",
				  n);
		}
		free(pds);
		return ENG_ERR_NO_DEVICE;
	}
	free(pds);
	dev->physical = best;
	vkGetPhysicalDeviceProperties(best, &dev->props);
	vkGetPhysicalDeviceMemoryProperties(best, &dev->mem_props);
	dev->queue_family = graphics_family(best, &dev->timestamp_valid_bits);
	VkPhysicalDeviceDriverProperties drv = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
	VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
					  .pNext = &drv};
	vkGetPhysicalDeviceProperties2(best, &p2);
	snprintf(dev->driver, sizeof dev->driver, "%s %s", drv.driverName, drv.driverInfo);
	return ENG_OK;
}

eng_result vk_device_init(vk_device *dev, const eng_gfx_desc *desc, eng_window *window)
{
	bool need_surface = window != NULL;
	dev->validate = desc->validate;
	if (volkInitialize() != VK_SUCCESS) {
		eng_error("vulkan: no Vulkan loader (libvulkan.so.1) found; install libvulkan1 and "
			  "a driver (mesa-vulkan-drivers)");
		return ENG_ERR_NO_DRIVER;
	}
	eng_result r = create_instance(dev, desc->validate, need_surface);
	if (r != ENG_OK)
		return r;
	r = pick_device(dev, desc->device, need_surface);
	if (r != ENG_OK)
		return r;

	const char *exts[4];
	uint32_t n_exts = 0;
	if (need_surface)
		exts[n_exts++] = VK_KHR_SWAPCHAIN_EXTENSION_NAME;
	dev->calibrated_timestamps =
		has_device_ext(dev->physical, VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME);
	if (dev->calibrated_timestamps)
		exts[n_exts++] = VK_EXT_CALIBRATED_TIMESTAMPS_EXTENSION_NAME;

	float prio = 1.0f;
	VkDeviceQueueCreateInfo qci = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
		.queueFamilyIndex = dev->queue_family,
		.queueCount = 1,
		.pQueuePriorities = &prio,
	};
	VkPhysicalDeviceVulkan12Features f12 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
		.hostQueryReset = VK_TRUE,
	};
	VkPhysicalDeviceVulkan13Features f13 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
		.pNext = &f12,
		.dynamicRendering = VK_TRUE,
		.synchronization2 = VK_TRUE,
		/* Required of every Vulkan 1.3 device; SPIR-V 1.6 compute shaders
		 * (glslc --target-env=vulkan1.3) declare LocalSizeId, which needs
		 * it enabled. */
		.maintenance4 = VK_TRUE,
	};
	/* Work counters: pipeline statistics queries where the device has
	 * them (the timer says when it has not). */
	VkPhysicalDeviceFeatures have = {0};
	vkGetPhysicalDeviceFeatures(dev->physical, &have);
	VkPhysicalDeviceFeatures2 f2 = {
		.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
		.pNext = &f13,
		.features.pipelineStatisticsQuery = desc->work_counters && have.pipelineStatisticsQuery,
	};
	VkDeviceCreateInfo dci = {
		.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
		.pNext = &f2,
		.queueCreateInfoCount = 1,
		.pQueueCreateInfos = &qci,
		.enabledExtensionCount = n_exts,
		.ppEnabledExtensionNames = exts,
	};
	VK_CHECK_RET(vkCreateDevice(dev->physical, &dci, NULL, &dev->device));
	volkLoadDevice(dev->device);
	vkGetDeviceQueue(dev->device, dev->queue_family, 0, &dev->queue);
	return ENG_OK;
}

void vk_device_finish(vk_device *dev)
{
	if (!dev->device)
		return;
	/* vk_shutdown waited and said what failed; a lost device was said
	 * where it was found. Either way the device goes next. */
	VkResult r = vkDeviceWaitIdle(dev->device);
	if (r < 0 && r != VK_ERROR_DEVICE_LOST)
		eng_error("vulkan: waiting for the device before destroying it failed: %s",
			  vk_result_str(r));
}

void vk_device_shutdown(vk_device *dev)
{
	if (dev->device)
		vkDestroyDevice(dev->device, NULL);
	if (dev->messenger)
		vkDestroyDebugUtilsMessengerEXT(dev->instance, dev->messenger, NULL);
	if (dev->instance)
		vkDestroyInstance(dev->instance, NULL);
	dev->device = VK_NULL_HANDLE;
	dev->messenger = VK_NULL_HANDLE;
	dev->instance = VK_NULL_HANDLE;
}
