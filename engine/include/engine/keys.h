/*
 * engine/keys.h - the keys a window reports, as the engine names them.
 *
 * Key handlers (eng_set_key_handler) get an eng_key and ENG_MOD_* bits,
 * whatever window system runs underneath; keys it has no name for arrive
 * as ENG_KEY_UNKNOWN. Letters, digits, F-keys and keypad digits are
 * contiguous: ENG_KEY_A + 2 is ENG_KEY_C.
 */
#ifndef ENGINE_KEYS_H
#define ENGINE_KEYS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum eng_key {
	ENG_KEY_UNKNOWN = 0,
	ENG_KEY_A, ENG_KEY_B, ENG_KEY_C, ENG_KEY_D, ENG_KEY_E, ENG_KEY_F, ENG_KEY_G,
	ENG_KEY_H, ENG_KEY_I, ENG_KEY_J, ENG_KEY_K, ENG_KEY_L, ENG_KEY_M, ENG_KEY_N,
	ENG_KEY_O, ENG_KEY_P, ENG_KEY_Q, ENG_KEY_R, ENG_KEY_S, ENG_KEY_T, ENG_KEY_U,
	ENG_KEY_V, ENG_KEY_W, ENG_KEY_X, ENG_KEY_Y, ENG_KEY_Z,
	ENG_KEY_0, ENG_KEY_1, ENG_KEY_2, ENG_KEY_3, ENG_KEY_4,
	ENG_KEY_5, ENG_KEY_6, ENG_KEY_7, ENG_KEY_8, ENG_KEY_9,
	ENG_KEY_F1, ENG_KEY_F2, ENG_KEY_F3, ENG_KEY_F4, ENG_KEY_F5, ENG_KEY_F6,
	ENG_KEY_F7, ENG_KEY_F8, ENG_KEY_F9, ENG_KEY_F10, ENG_KEY_F11, ENG_KEY_F12,
	ENG_KEY_SPACE, ENG_KEY_MINUS, ENG_KEY_EQUAL, /* '=' is the '+' key unshifted */
	ENG_KEY_ENTER, ENG_KEY_ESCAPE, ENG_KEY_TAB, ENG_KEY_BACKSPACE,
	ENG_KEY_INSERT, ENG_KEY_DELETE,
	ENG_KEY_UP, ENG_KEY_DOWN, ENG_KEY_LEFT, ENG_KEY_RIGHT,
	ENG_KEY_PAGE_UP, ENG_KEY_PAGE_DOWN, ENG_KEY_HOME, ENG_KEY_END,
	ENG_KEY_KP_0, ENG_KEY_KP_1, ENG_KEY_KP_2, ENG_KEY_KP_3, ENG_KEY_KP_4,
	ENG_KEY_KP_5, ENG_KEY_KP_6, ENG_KEY_KP_7, ENG_KEY_KP_8, ENG_KEY_KP_9,
	ENG_KEY_KP_ADD, ENG_KEY_KP_SUBTRACT, ENG_KEY_KP_MULTIPLY, ENG_KEY_KP_DIVIDE,
	ENG_KEY_KP_ENTER,
	ENG_KEY_COUNT
} eng_key;

/* Modifier bits held with a key. */
enum {
	ENG_MOD_SHIFT = 1,
	ENG_MOD_CONTROL = 2,
	ENG_MOD_ALT = 4,
	ENG_MOD_SUPER = 8,
};

#ifdef __cplusplus
}
#endif

#endif
