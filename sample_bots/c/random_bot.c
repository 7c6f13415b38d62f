/*
 * random_bot.c - a Knockout Whist arena bot (protocol v1) that plays a
 * uniformly random legal move. libc only.
 *
 *   make && ./random_bot
 *
 * The referee writes one JSON object per line to stdin. The bot answers only
 * `hello` (with `ready`) and `request` (with `move`), ignores every other
 * message, and exits with status 0 on `bye` or at the end of input. Only
 * protocol lines go to stdout; diagnostics go to stderr.
 *
 * JSON: a minimal scanner, enough for this protocol. It walks the top-level
 * object of each line and keeps `type`, `id`, `game`, `seat` and `legal`;
 * every other value (the `state`, `rules`, ...) is skipped whole, so a key
 * nested inside them is never mistaken for a top-level one. Key order and
 * whitespace do not matter. The legal moves are kept as the raw text between
 * their quotes and echoed back verbatim, which is always a valid JSON string
 * for the same value; the request's `id` is echoed verbatim too.
 *
 * Reproducible: at each `game_start` the generator is seeded from the game id
 * and the seat (FNV-1a of the UTF-8 bytes of "<game>/<seat>", then
 * mulberry32), the same as the JavaScript sample bot, so the two make
 * identical choices in identical positions.
 */
#define _POSIX_C_SOURCE 200809L

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#define NAME "random-c"
#define MAX_DEPTH 128 /* nesting deeper than this is refused, not recursed into */

/* A piece of the input line: not NUL-terminated. */
typedef struct {
    const char *p;
    size_t n;
} Slice;

/* What the bot needs from one message. A field is absent when its p is NULL. */
typedef struct {
    Slice type;  /* raw string contents */
    Slice id;    /* raw JSON value */
    Slice game;  /* raw string contents */
    Slice seat;  /* raw JSON value */
    Slice *legal; /* raw string contents of each string in `legal` */
    size_t nlegal, cap_legal;
} Message;

/* ---- random numbers: FNV-1a to seed, mulberry32 to draw ---- */

static uint32_t rng_state;

static uint32_t fnv1a(uint32_t hash, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        hash ^= p[i];
        hash *= 0x01000193u;
    }
    return hash;
}

static uint32_t mulberry32(void)
{
    uint32_t t = rng_state += 0x6D2B79F5u;
    t = (t ^ (t >> 15)) * (t | 1u);
    t ^= t + (t ^ (t >> 7)) * (t | 61u);
    return t ^ (t >> 14);
}

/* A number in [0, n): floor(n * draw / 2^32), as the JavaScript bot computes it. */
static size_t pick(size_t n)
{
    return (size_t)(((uint64_t)mulberry32() * n) >> 32);
}

/* ---- JSON scanning ---- */

static const char *skip_ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
        p++;
    return p;
}

/* p points at an opening quote. Sets *raw to the contents (escapes left as
 * they are) and returns the position after the closing quote, or NULL. */
static const char *scan_string(const char *p, const char *end, Slice *raw)
{
    const char *start = ++p;
    while (p < end) {
        if (*p == '"') {
            if (raw) {
                raw->p = start;
                raw->n = (size_t)(p - start);
            }
            return p + 1;
        }
        if (*p == '\\') {
            p++;
            if (p >= end)
                return NULL;
        } else if ((unsigned char)*p < 0x20) {
            return NULL; /* control characters must be escaped */
        }
        p++;
    }
    return NULL;
}

/* Skips one JSON value starting at p (no leading whitespace); returns the
 * position after it, or NULL when it is malformed. */
static const char *skip_value(const char *p, const char *end, int depth)
{
    if (p >= end)
        return NULL;
    if (*p == '"')
        return scan_string(p, end, NULL);
    if (*p == '{' || *p == '[') {
        char close = *p == '{' ? '}' : ']';
        if (depth >= MAX_DEPTH)
            return NULL;
        p = skip_ws(p + 1, end);
        if (p < end && *p == close)
            return p + 1;
        for (;;) {
            if (close == '}') {
                if (p >= end || *p != '"' || !(p = scan_string(p, end, NULL)))
                    return NULL;
                p = skip_ws(p, end);
                if (p >= end || *p != ':')
                    return NULL;
                p = skip_ws(p + 1, end);
            }
            if (!(p = skip_value(p, end, depth + 1)))
                return NULL;
            p = skip_ws(p, end);
            if (p < end && *p == ',') {
                p = skip_ws(p + 1, end);
                continue;
            }
            if (p < end && *p == close)
                return p + 1;
            return NULL;
        }
    }
    /* A number, true, false or null: one run of these characters. */
    const char *start = p;
    while (p < end && (strchr("+-.0123456789eE", *p) || (*p >= 'a' && *p <= 'z')) && *p)
        p++;
    return p > start ? p : NULL;
}

/* Decodes the contents of a JSON string into out (at least raw.n bytes: a
 * decoded string is never longer than its escaped form). Returns the length,
 * or (size_t)-1 for a bad escape. A lone surrogate becomes U+FFFD. */
static size_t decode_string(Slice raw, char *out)
{
    const char *p = raw.p, *end = raw.p + raw.n;
    size_t n = 0;
    while (p < end) {
        if (*p != '\\') {
            out[n++] = *p++;
            continue;
        }
        if (++p >= end)
            return (size_t)-1;
        char c = *p++;
        switch (c) {
        case '"': case '\\': case '/': out[n++] = c; break;
        case 'b': out[n++] = '\b'; break;
        case 'f': out[n++] = '\f'; break;
        case 'n': out[n++] = '\n'; break;
        case 'r': out[n++] = '\r'; break;
        case 't': out[n++] = '\t'; break;
        case 'u': {
            uint32_t cp = 0;
            for (int i = 0; i < 4; i++, p++) {
                if (p >= end)
                    return (size_t)-1;
                char h = *p;
                int v = h >= '0' && h <= '9' ? h - '0'
                        : h >= 'a' && h <= 'f' ? h - 'a' + 10
                        : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
                if (v < 0)
                    return (size_t)-1;
                cp = cp << 4 | (uint32_t)v;
            }
            if (cp >= 0xD800 && cp <= 0xDBFF) { /* a high surrogate: is a low one next? */
                uint32_t lo = 0;
                int ok = end - p >= 6 && p[0] == '\\' && p[1] == 'u';
                for (int i = 2; ok && i < 6; i++) {
                    char h = p[i];
                    int v = h >= '0' && h <= '9' ? h - '0'
                            : h >= 'a' && h <= 'f' ? h - 'a' + 10
                            : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
                    ok = v >= 0;
                    lo = lo << 4 | (uint32_t)(v & 0xF);
                }
                if (ok && lo >= 0xDC00 && lo <= 0xDFFF) {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    p += 6;
                } else {
                    cp = 0xFFFD;
                }
            } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                cp = 0xFFFD;
            }
            if (cp < 0x80) {
                out[n++] = (char)cp;
            } else if (cp < 0x800) {
                out[n++] = (char)(0xC0 | cp >> 6);
                out[n++] = (char)(0x80 | (cp & 0x3F));
            } else if (cp < 0x10000) {
                out[n++] = (char)(0xE0 | cp >> 12);
                out[n++] = (char)(0x80 | (cp >> 6 & 0x3F));
                out[n++] = (char)(0x80 | (cp & 0x3F));
            } else {
                out[n++] = (char)(0xF0 | cp >> 18);
                out[n++] = (char)(0x80 | (cp >> 12 & 0x3F));
                out[n++] = (char)(0x80 | (cp >> 6 & 0x3F));
                out[n++] = (char)(0x80 | (cp & 0x3F));
            }
            break;
        }
        default:
            return (size_t)-1;
        }
    }
    return n;
}

/* Whether the raw contents of a JSON string decode to the C string lit. */
static int string_is(Slice raw, const char *lit)
{
    if (!raw.p)
        return 0;
    size_t len = strlen(lit);
    if (!memchr(raw.p, '\\', raw.n))
        return raw.n == len && memcmp(raw.p, lit, len) == 0;
    char buf[64];
    if (raw.n > sizeof buf)
        return 0; /* too long to be any of our short names, even escaped */
    size_t n = decode_string(raw, buf);
    return n == len && memcmp(buf, lit, len) == 0;
}

/* Parses the `legal` array at p into m; returns the position after it, or NULL. */
static const char *scan_legal(const char *p, const char *end, Message *m)
{
    const char *after = skip_value(p, end, 1); /* validates the whole array first */
    if (!after || *p != '[')
        return after;
    p = skip_ws(p + 1, end);
    while (p < after && *p != ']') {
        if (*p == '"') {
            Slice s;
            p = scan_string(p, end, &s);
            if (m->nlegal == m->cap_legal) {
                size_t cap = m->cap_legal ? 2 * m->cap_legal : 64;
                Slice *grown = realloc(m->legal, cap * sizeof *grown);
                if (!grown) {
                    fputs("random_bot.c: out of memory\n", stderr);
                    exit(1);
                }
                m->legal = grown;
                m->cap_legal = cap;
            }
            m->legal[m->nlegal++] = s;
        } else {
            p = skip_value(p, end, 2); /* not a string: not a move we can send */
        }
        p = skip_ws(p, end);
        if (*p == ',')
            p = skip_ws(p + 1, end);
    }
    return after;
}

/* Parses one line into m. Returns 0 on success, -1 when it is not a JSON object. */
static int parse_message(const char *line, size_t len, Message *m)
{
    const char *p = line, *end = line + len;
    m->type.p = m->id.p = m->game.p = m->seat.p = NULL;
    m->nlegal = 0;
    p = skip_ws(p, end);
    if (p >= end || *p != '{')
        return -1;
    p = skip_ws(p + 1, end);
    if (p < end && *p == '}')
        return skip_ws(p + 1, end) == end ? 0 : -1;
    for (;;) {
        Slice key;
        if (p >= end || *p != '"' || !(p = scan_string(p, end, &key)))
            return -1;
        p = skip_ws(p, end);
        if (p >= end || *p != ':')
            return -1;
        p = skip_ws(p + 1, end);
        if (p >= end)
            return -1;
        const char *value = p;
        if (string_is(key, "legal")) {
            p = scan_legal(p, end, m);
        } else {
            p = skip_value(p, end, 1);
            if (p) {
                Slice raw = {value, (size_t)(p - value)};
                Slice contents = {value + 1, raw.n >= 2 ? raw.n - 2 : 0};
                if (string_is(key, "type") && *value == '"')
                    m->type = contents;
                else if (string_is(key, "game") && *value == '"')
                    m->game = contents;
                else if (string_is(key, "id"))
                    m->id = raw;
                else if (string_is(key, "seat"))
                    m->seat = raw;
            }
        }
        if (!p)
            return -1;
        p = skip_ws(p, end);
        if (p < end && *p == ',') {
            p = skip_ws(p + 1, end);
            continue;
        }
        if (p < end && *p == '}')
            return skip_ws(p + 1, end) == end ? 0 : -1;
        return -1;
    }
}

/* ---- the bot ---- */

/* Seeds the generator from "<game>/<seat>" for a game_start message. */
static void seed_game(const Message *m)
{
    uint32_t hash = 0x811C9DC5u;
    if (m->game.p) {
        char *decoded = malloc(m->game.n + 1);
        if (!decoded) {
            fputs("random_bot.c: out of memory\n", stderr);
            exit(1);
        }
        size_t n = decode_string(m->game, decoded);
        if (n != (size_t)-1)
            hash = fnv1a(hash, (const unsigned char *)decoded, n);
        free(decoded);
    }
    char seat[32];
    long value = 0;
    if (m->seat.p && m->seat.n < sizeof seat) {
        memcpy(seat, m->seat.p, m->seat.n);
        seat[m->seat.n] = '\0';
        value = strtol(seat, NULL, 10);
    }
    int n = snprintf(seat, sizeof seat, "/%ld", value);
    hash = fnv1a(hash, (const unsigned char *)seat, (size_t)n);
    rng_state = hash;
}

/* Sends what was printed. When the referee has closed our stdout nobody is
 * listening any more: exit quietly (SIGPIPE is ignored, see main). */
static void flush_or_exit(void)
{
    if (fflush(stdout) == EOF)
        exit(0);
}

static void answer_request(const Message *m)
{
    if (!m->id.p) {
        fputs("random_bot.c: a request without an id\n", stderr);
        return;
    }
    if (m->nlegal == 0) {
        fprintf(stderr, "random_bot.c: request %.*s has no legal move\n", (int)m->id.n, m->id.p);
        return;
    }
    Slice move = m->legal[pick(m->nlegal)];
    printf("{\"type\": \"move\", \"id\": %.*s, \"move\": \"%.*s\"}\n", (int)m->id.n, m->id.p,
           (int)move.n, move.p);
    flush_or_exit();
}

int main(void)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    Message m = {0};

    signal(SIGPIPE, SIG_IGN); /* a closed stdout is an error from fflush, not a kill */
    rng_state = 0x811C9DC5u; /* the seed of an empty name, until the first game_start */
    while ((len = getline(&line, &cap, stdin)) != -1) { /* getline grows the buffer */
        if (parse_message(line, (size_t)len, &m) != 0) {
            int shown = len > 200 ? 200 : (int)len;
            while (shown > 0 && (line[shown - 1] == '\n' || line[shown - 1] == '\r'))
                shown--;
            if (skip_ws(line, line + len) != line + len)
                fprintf(stderr, "random_bot.c: ignoring a line that is not a JSON object: %.*s\n",
                        shown, line);
            continue;
        }
        if (string_is(m.type, "request")) {
            answer_request(&m);
        } else if (string_is(m.type, "hello")) {
            fputs("{\"type\": \"ready\", \"name\": \"" NAME "\"}\n", stdout);
            flush_or_exit();
        } else if (string_is(m.type, "game_start")) {
            seed_game(&m);
        } else if (string_is(m.type, "bye")) {
            break;
        }
        /* Everything else (hand_start, event, hand_end, game_end, error, new
         * message types) is information: never answered. */
    }
    free(line);
    free(m.legal);
    return 0;
}
