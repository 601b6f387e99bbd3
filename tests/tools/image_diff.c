/* image_diff A.png B.png MAX_MEAN MIN_SAME: compares two screenshots of
 * the same size. Prints the mean absolute difference per RGB channel (0-255),
 * the share of pixels that are byte-identical and the largest difference;
 * exit 0 when mean <= MAX_MEAN and share >= MIN_SAME (0-1), else 1. */
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#include <stb/stb_image.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: image_diff A.png B.png MAX_MEAN MIN_SAME\n");
		return 2;
	}
	int w[2], h[2], n;
	unsigned char *img[2];
	for (int i = 0; i < 2; i++) {
		img[i] = stbi_load(argv[1 + i], &w[i], &h[i], &n, 4);
		if (!img[i]) {
			fprintf(stderr, "image_diff: %s: %s\n", argv[1 + i], stbi_failure_reason());
			return 2;
		}
	}
	if (w[0] != w[1] || h[0] != h[1]) {
		fprintf(stderr, "image_diff: sizes differ: %dx%d and %dx%d\n", w[0], h[0], w[1], h[1]);
		return 1;
	}
	size_t pixels = (size_t)w[0] * (size_t)h[0], same = 0;
	double sum = 0;
	int worst = 0;
	for (size_t p = 0; p < pixels; p++) {
		const unsigned char *a = img[0] + 4 * p, *b = img[1] + 4 * p;
		int differs = 0;
		for (int c = 0; c < 3; c++) {
			int d = abs((int)a[c] - (int)b[c]);
			sum += d;
			worst = d > worst ? d : worst;
			differs |= d;
		}
		same += !differs;
	}
	double mean = sum / (3.0 * (double)pixels), share = (double)same / (double)pixels;
	double max_mean = atof(argv[3]), min_same = atof(argv[4]);
	printf("image_diff: %dx%d, mean |difference| %.3f per channel (at most %g), %.2f%% of pixels "
	       "identical (at least %.0f%%), largest difference %d\n",
	       w[0], h[0], mean, max_mean, 100.0 * share, 100.0 * min_same, worst);
	stbi_image_free(img[0]);
	stbi_image_free(img[1]);
	return mean <= max_mean && share >= min_same ? 0 : 1;
}
