#ifndef CEDITLINE_SHIM_H
#define CEDITLINE_SHIM_H

// Swift cannot call C variadic functions, and in Swift 6 mode it rejects the
// mutable C globals stdin/stdout/stderr. Every libedit call the executable
// needs goes through one of these fixed-signature wrappers instead.

#include <histedit.h>
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <wchar.h>

/// The prompt callback libedit calls on every redraw.
typedef char *(*cel_prompt_fn)(EditLine *);
/// A user-defined editor function (bound to a key with EL_BIND).
typedef unsigned char (*cel_editor_fn)(EditLine *, int);

// MARK: - Standard streams (globals Swift 6 refuses to touch directly)

static inline FILE *cel_stdin(void) { return stdin; }
static inline FILE *cel_stdout(void) { return stdout; }
static inline FILE *cel_stderr(void) { return stderr; }

// MARK: - Character width

// glibc declares wcwidth only under _XOPEN_SOURCE, which the module import does not define.
extern int wcwidth(wchar_t c);

/// Terminal columns of one Unicode scalar in the current LC_CTYPE (-1 when not printable),
/// the same measure libedit uses to wrap the line.
static inline int cel_wcwidth(int scalar) { return wcwidth((wchar_t)scalar); }

// MARK: - el_set / el_get

/// EL_PROMPT_ESC with '\1' as the delimiter, so a prompt may wrap invisible
/// escape sequences in \1...\1; a prompt without \1 behaves as with EL_PROMPT.
static inline int cel_set_prompt(EditLine *el, cel_prompt_fn fn) {
    return el_set(el, EL_PROMPT_ESC, fn, '\1');
}

static inline int cel_set_editor(EditLine *el, const char *mode) {
    return el_set(el, EL_EDITOR, mode);
}

static inline int cel_set_signal(EditLine *el, int handle) {
    return el_set(el, EL_SIGNAL, handle);
}

static inline int cel_set_hist(EditLine *el, History *h) {
    return el_set(el, EL_HIST, history, h);
}

static inline int cel_add_function(EditLine *el, const char *name, const char *help, cel_editor_fn fn) {
    return el_set(el, EL_ADDFN, name, help, fn);
}

/// EL_BIND of one key sequence (e.g. "^I") to a named editor function.
static inline int cel_bind(EditLine *el, const char *key, const char *function) {
    return el_set(el, EL_BIND, key, function, (const char *)NULL);
}

/// EL_SETTY with two arguments, e.g. ("-d", "-isig"): keep isig off while editing.
static inline int cel_setty(EditLine *el, const char *arg1, const char *arg2) {
    return el_set(el, EL_SETTY, arg1, arg2, (const char *)NULL);
}

static inline int cel_set_clientdata(EditLine *el, void *data) {
    return el_set(el, EL_CLIENTDATA, data);
}

static inline void *cel_get_clientdata(EditLine *el) {
    void *data = NULL;
    if (el_get(el, EL_CLIENTDATA, &data) != 0) {
        return NULL;
    }
    return data;
}

/// The terminal width libedit is using ("co" capability), or 0 if unknown.
static inline int cel_terminal_columns(EditLine *el) {
    int columns = 0;
    if (el_get(el, EL_GETTC, "co", &columns) != 0) {
        return 0;
    }
    return columns;
}

// MARK: - history

static inline int cel_history_setsize(History *h, int size) {
    HistEvent ev;
    return history(h, &ev, H_SETSIZE, size);
}

static inline int cel_history_setunique(History *h, int unique) {
    HistEvent ev;
    return history(h, &ev, H_SETUNIQUE, unique);
}

static inline int cel_history_enter(History *h, const char *line) {
    HistEvent ev;
    return history(h, &ev, H_ENTER, line);
}

/// Number of entries loaded, or -1 (e.g. when the file does not exist yet).
static inline int cel_history_load(History *h, const char *path) {
    HistEvent ev;
    return history(h, &ev, H_LOAD, path);
}

/// Number of entries saved, or -1 on failure.
static inline int cel_history_save(History *h, const char *path) {
    HistEvent ev;
    return history(h, &ev, H_SAVE, path);
}

#endif
