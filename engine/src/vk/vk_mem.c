/* Device memory: large blocks per memory type, carved first-fit with
 * coalescing free ranges. A handful of blocks instead of one allocation per
 * resource (drivers cap allocations; best practices flags small ones).
 * Host-visible blocks are mapped once for their lifetime. */
#include "vk_ctx.h"

#include <stdlib.h>
#include <string.h>

#define BLOCK_SIZE ((VkDeviceSize)32 << 20)
#define MAX_RANGES 1024

typedef struct range {
	VkDeviceSize offset, size;
} range;

typedef struct vk_mem_block {
	VkDeviceMemory memory;
	VkDeviceSize size;
	uint32_t type;
	void *mapped;
	range free[MAX_RANGES]; /* sorted by offset, disjoint */
	uint32_t n_free;
} block;

static VkDeviceSize align_up(VkDeviceSize v, VkDeviceSize a)
{
	return (v + a - 1) / a * a;
}

static bool carve(block *b, VkDeviceSize size, VkDeviceSize align, VkDeviceSize *offset)
{
	for (uint32_t i = 0; i < b->n_free; i++) {
		range *r = &b->free[i];
		VkDeviceSize start = align_up(r->offset, align);
		if (start + size > r->offset + r->size)
			continue;
		VkDeviceSize end = start + size, r_end = r->offset + r->size;
		/* Split into what is left before and after. */
		bool before = start > r->offset, after = end < r_end;
		if (before && after) {
			if (b->n_free == MAX_RANGES)
				continue;
			memmove(&b->free[i + 2], &b->free[i + 1], (b->n_free - i - 1) * sizeof *r);
			b->free[i + 1] = (range){end, r_end - end};
			r->size = start - r->offset;
			b->n_free++;
		} else if (before) {
			r->size = start - r->offset;
		} else if (after) {
			*r = (range){end, r_end - end};
		} else {
			memmove(r, r + 1, (b->n_free - i - 1) * sizeof *r);
			b->n_free--;
		}
		*offset = start;
		return true;
	}
	return false;
}

static void give_back(block *b, VkDeviceSize offset, VkDeviceSize size)
{
	uint32_t i = 0;
	while (i < b->n_free && b->free[i].offset < offset)
		i++;
	bool join_prev = i > 0 && b->free[i - 1].offset + b->free[i - 1].size == offset;
	bool join_next = i < b->n_free && offset + size == b->free[i].offset;
	if (join_prev && join_next) {
		b->free[i - 1].size += size + b->free[i].size;
		memmove(&b->free[i], &b->free[i + 1], (b->n_free - i - 1) * sizeof(range));
		b->n_free--;
	} else if (join_prev) {
		b->free[i - 1].size += size;
	} else if (join_next) {
		b->free[i].offset = offset;
		b->free[i].size += size;
	} else if (b->n_free < MAX_RANGES) {
		memmove(&b->free[i + 1], &b->free[i], (b->n_free - i) * sizeof(range));
		b->free[i] = (range){offset, size};
		b->n_free++;
	}
}

static uint32_t find_type(const vk_ctx *c, uint32_t bits, VkMemoryPropertyFlags props)
{
	for (uint32_t i = 0; i < c->dev.mem_props.memoryTypeCount; i++)
		if ((bits & (1u << i)) &&
		    (c->dev.mem_props.memoryTypes[i].propertyFlags & props) == props)
			return i;
	return UINT32_MAX;
}

eng_result vk_mem_alloc(vk_ctx *c, VkMemoryRequirements req, VkMemoryPropertyFlags props,
			vk_alloc *out)
{
	uint32_t type = find_type(c, req.memoryTypeBits, props);
	if (type == UINT32_MAX && (props & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT))
		type = find_type(c, req.memoryTypeBits, props & ~VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
	if (type == UINT32_MAX) {
		eng_error("vulkan: no memory type with properties 0x%x for this resource", props);
		return ENG_ERR_OUT_OF_MEMORY;
	}
	VkDeviceSize align = req.alignment;
	if (c->dev.props.limits.bufferImageGranularity > align)
		align = c->dev.props.limits.bufferImageGranularity;
	VkDeviceSize size = align_up(req.size, align);
	bool host = c->dev.mem_props.memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;

	for (uint32_t pass = 0; pass < 2; pass++) {
		for (uint32_t i = 0; i < VK_MAX_BLOCKS; i++) {
			block *b = c->blocks[i];
			if (!b && pass == 1) {
				VkDeviceSize bs = size > BLOCK_SIZE ? align_up(size, BLOCK_SIZE) : BLOCK_SIZE;
				VkMemoryAllocateInfo ai = {
					.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
					.allocationSize = bs,
					.memoryTypeIndex = type,
				};
				VkDeviceMemory mem;
				VkResult r = vkAllocateMemory(c->dev.device, &ai, NULL, &mem);
				if (r < 0) {
					eng_error("vulkan: cannot allocate %llu MiB of device memory: %s",
						  (unsigned long long)(bs >> 20), vk_result_str(r));
					return vk_to_eng(r);
				}
				b = calloc(1, sizeof *b);
				if (!b) {
					vkFreeMemory(c->dev.device, mem, NULL);
					return ENG_ERR_OUT_OF_MEMORY;
				}
				*b = (block){.memory = mem, .size = bs, .type = type, .n_free = 1};
				b->free[0] = (range){0, bs};
				if (host && vkMapMemory(c->dev.device, mem, 0, VK_WHOLE_SIZE, 0, &b->mapped) < 0) {
					vkFreeMemory(c->dev.device, mem, NULL);
					free(b);
					return ENG_ERR_OUT_OF_MEMORY;
				}
				c->blocks[i] = b;
			}
			if (!b || b->type != type)
				continue;
			VkDeviceSize offset;
			if (carve(b, size, align, &offset)) {
				*out = (vk_alloc){
					.memory = b->memory,
					.offset = offset,
					.size = size,
					.mapped = b->mapped ? (char *)b->mapped + offset : NULL,
					.block = i,
				};
				return ENG_OK;
			}
		}
	}
	eng_error("vulkan: out of memory blocks");
	return ENG_ERR_OUT_OF_MEMORY;
}

void vk_mem_free(vk_ctx *c, vk_alloc *a)
{
	if (!a->memory)
		return;
	block *b = c->blocks[a->block];
	if (b && b->memory == a->memory)
		give_back(b, a->offset, a->size);
	memset(a, 0, sizeof *a);
}

void vk_mem_shutdown(vk_ctx *c)
{
	for (uint32_t i = 0; i < VK_MAX_BLOCKS; i++) {
		if (!c->blocks[i])
			continue;
		vkFreeMemory(c->dev.device, c->blocks[i]->memory, NULL);
		free(c->blocks[i]);
		c->blocks[i] = NULL;
	}
}
