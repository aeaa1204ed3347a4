#ifndef EXPLORER_CNCURSES_SHIM_H
#define EXPLORER_CNCURSES_SHIM_H

#define NCURSES_WIDECHAR 1
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <locale.h>
#include <langinfo.h>
#include <wchar.h>
#include <stdio.h>
#include <ncursesw/curses.h>

/* Swift cannot import function-like macros or some computed constants; these inline
   wrappers give them names the Curses layer can call. */

static inline attr_t explorer_a_normal(void) { return A_NORMAL; }
static inline attr_t explorer_a_bold(void) { return A_BOLD; }
static inline attr_t explorer_a_dim(void) { return A_DIM; }
static inline attr_t explorer_a_italic(void) { return A_ITALIC; }
static inline attr_t explorer_a_underline(void) { return A_UNDERLINE; }
static inline attr_t explorer_a_reverse(void) { return A_REVERSE; }
static inline attr_t explorer_a_blink(void) { return A_BLINK; }
static inline attr_t explorer_a_standout(void) { return A_STANDOUT; }

static inline mmask_t explorer_all_mouse_events(void) { return ALL_MOUSE_EVENTS; }
static inline mmask_t explorer_report_mouse_position(void) { return REPORT_MOUSE_POSITION; }
static inline mmask_t explorer_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t explorer_button1_released(void) { return BUTTON1_RELEASED; }
static inline mmask_t explorer_button1_clicked(void) { return BUTTON1_CLICKED; }
static inline mmask_t explorer_button2_pressed(void) { return BUTTON2_PRESSED; }
static inline mmask_t explorer_button3_pressed(void) { return BUTTON3_PRESSED; }
static inline mmask_t explorer_button3_clicked(void) { return BUTTON3_CLICKED; }
static inline mmask_t explorer_button4_pressed(void) { return BUTTON4_PRESSED; }
static inline mmask_t explorer_button5_pressed(void) { return BUTTON5_PRESSED; }
static inline mmask_t explorer_button_shift(void) { return BUTTON_SHIFT; }
static inline mmask_t explorer_button_ctrl(void) { return BUTTON_CTRL; }
static inline mmask_t explorer_button_alt(void) { return BUTTON_ALT; }

static inline int explorer_key_f(int n) { return KEY_F(n); }
static inline int explorer_key_code_yes(void) { return KEY_CODE_YES; }
static inline int explorer_err(void) { return ERR; }
static inline int explorer_ok(void) { return OK; }

static inline int explorer_getmaxy(WINDOW *w) { int y, x; getmaxyx(w, y, x); (void)x; return y; }
static inline int explorer_getmaxx(WINDOW *w) { int y, x; getmaxyx(w, y, x); (void)y; return x; }
static inline WINDOW *explorer_stdscr(void) { return stdscr; }
static inline int explorer_colors(void) { return COLORS; }
static inline int explorer_color_pairs(void) { return COLOR_PAIRS; }

/* Fills a cchar_t with up to CCHARW_MAX wide characters, an attribute set and an extended
   colour pair (passed through the `opts` pointer, as ncurses 6.1+ allows). */
static inline int explorer_setcchar(cchar_t *cell, const wchar_t *chars, attr_t attrs, int pair) {
    return setcchar(cell, chars, attrs, (short)(pair > 32767 ? 0 : pair), &pair);
}

static inline int explorer_ccharw_max(void) { return CCHARW_MAX; }

/* wcwidth is only declared by <wchar.h> under _XOPEN_SOURCE; declare it here. */
extern int wcwidth(wchar_t c);
static inline int explorer_wcwidth(wchar_t c) { return wcwidth(c); }

/* The locale's character set, so the Curses layer can tell whether it is UTF-8. */
static inline const char *explorer_codeset(void) { return nl_langinfo(CODESET); }

/* Pseudo-terminal calls for the pty tests; <stdlib.h> declares them only under
   _XOPEN_SOURCE, which the Swift importer does not set. */
extern int posix_openpt(int flags);
extern int grantpt(int fd);
extern int unlockpt(int fd);
extern char *ptsname(int fd);
static inline int explorer_open_pty_master(void) {
    int fd = posix_openpt(02 /* O_RDWR */ | 0400 /* O_NOCTTY */);
    if (fd < 0) return -1;
    if (grantpt(fd) != 0 || unlockpt(fd) != 0) return -1;
    return fd;
}
static inline const char *explorer_pty_slave_name(int fd) { return ptsname(fd); }

#endif
