#include "CCurlShim.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// MARK: - The part of libcurl's ABI this file uses (values from curl/curl.h, stable since 7.68)

typedef void CURL;
typedef void CURLM;
typedef int CURLcode;
typedef int CURLMcode;
typedef long long curl_off_t;
struct curl_slist;

typedef struct {
  int msg;  // CURLMSG
  CURL *easy_handle;
  union {
    void *whatever;
    CURLcode result;
  } data;
} CURLMsg;

enum {
  CURLE_OK = 0,
  CURLE_FAILED_INIT = 2,
  CURLE_UNKNOWN_OPTION = 48,
  CURLE_FILESIZE_EXCEEDED = 63,
  CURLM_OK = 0,
  CURLMSG_DONE = 1,
  CURL_GLOBAL_DEFAULT = 3,
  CURL_ERROR_SIZE = 256,
  CURLPROTO_HTTP = 1,
  CURLPROTO_HTTPS = 2,
};

enum {
  CURLOPT_WRITEDATA = 10001,
  CURLOPT_URL = 10002,
  CURLOPT_ERRORBUFFER = 10010,
  CURLOPT_WRITEFUNCTION = 20011,
  CURLOPT_POSTFIELDS = 10015,
  CURLOPT_HTTPHEADER = 10023,
  CURLOPT_CUSTOMREQUEST = 10036,
  CURLOPT_NOPROGRESS = 43,
  CURLOPT_NOBODY = 44,
  CURLOPT_FAILONERROR = 45,
  CURLOPT_FOLLOWLOCATION = 52,
  CURLOPT_MAXREDIRS = 68,
  CURLOPT_HTTPGET = 80,
  CURLOPT_NOSIGNAL = 99,
  CURLOPT_ACCEPT_ENCODING = 10102,
  CURLOPT_MAXFILESIZE_LARGE = 30117,
  CURLOPT_POSTFIELDSIZE_LARGE = 30120,
  CURLOPT_TIMEOUT_MS = 155,
  CURLOPT_CONNECTTIMEOUT_MS = 156,
  CURLOPT_PROTOCOLS = 181,
  CURLOPT_REDIR_PROTOCOLS = 182,
  CURLOPT_PROTOCOLS_STR = 10318,
  CURLOPT_REDIR_PROTOCOLS_STR = 10319,
  CURLINFO_CONTENT_TYPE = 0x100000 + 18,
  CURLINFO_RESPONSE_CODE = 0x200000 + 2,
};

static struct {
  CURLcode (*global_init)(long flags);
  CURL *(*easy_init)(void);
  CURLcode (*easy_setopt)(CURL *, int option, ...);
  CURLcode (*easy_getinfo)(CURL *, int info, ...);
  void (*easy_cleanup)(CURL *);
  const char *(*easy_strerror)(CURLcode);
  CURLM *(*multi_init)(void);
  CURLMcode (*multi_add_handle)(CURLM *, CURL *);
  CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
  CURLMcode (*multi_perform)(CURLM *, int *running);
  CURLMcode (*multi_poll)(CURLM *, void *extra_fds, unsigned extra_count, int timeout_ms,
                          int *ready);
  CURLMcode (*multi_wakeup)(CURLM *);
  CURLMsg *(*multi_info_read)(CURLM *, int *queued);
  CURLMcode (*multi_cleanup)(CURLM *);
  const char *(*multi_strerror)(CURLMcode);
  struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
  void (*slist_free_all)(struct curl_slist *);
} curl;

// MARK: - Loading

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
// Written once inside pthread_once, read-only afterwards (pthread_once orders the accesses).
static int loaded;
static char load_error[256];

static void load_libcurl(void) {
  void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    const char *reason = dlerror();
    snprintf(load_error, sizeof load_error, "%s", reason != NULL ? reason : "dlopen failed");
    return;
  }
  struct {
    const char *name;
    void **slot;
  } symbols[] = {
      {"curl_global_init", (void **)&curl.global_init},
      {"curl_easy_init", (void **)&curl.easy_init},
      {"curl_easy_setopt", (void **)&curl.easy_setopt},
      {"curl_easy_getinfo", (void **)&curl.easy_getinfo},
      {"curl_easy_cleanup", (void **)&curl.easy_cleanup},
      {"curl_easy_strerror", (void **)&curl.easy_strerror},
      {"curl_multi_init", (void **)&curl.multi_init},
      {"curl_multi_add_handle", (void **)&curl.multi_add_handle},
      {"curl_multi_remove_handle", (void **)&curl.multi_remove_handle},
      {"curl_multi_perform", (void **)&curl.multi_perform},
      {"curl_multi_poll", (void **)&curl.multi_poll},
      {"curl_multi_wakeup", (void **)&curl.multi_wakeup},
      {"curl_multi_info_read", (void **)&curl.multi_info_read},
      {"curl_multi_cleanup", (void **)&curl.multi_cleanup},
      {"curl_multi_strerror", (void **)&curl.multi_strerror},
      {"curl_slist_append", (void **)&curl.slist_append},
      {"curl_slist_free_all", (void **)&curl.slist_free_all},
  };
  for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++) {
    *symbols[i].slot = dlsym(library, symbols[i].name);
    if (*symbols[i].slot == NULL) {
      snprintf(load_error, sizeof load_error, "libcurl.so.4 has no %s (libcurl 7.68 or later needed)",
               symbols[i].name);
      return;
    }
  }
  CURLcode code = curl.global_init(CURL_GLOBAL_DEFAULT);
  if (code != CURLE_OK) {
    snprintf(load_error, sizeof load_error, "curl_global_init failed: %s",
             curl.easy_strerror(code));
    return;
  }
  loaded = 1;
}

static int load(void) {
  pthread_once(&load_once, load_libcurl);
  return loaded;
}

int ccurl_available(char *error, size_t error_length) {
  if (load()) return 1;
  if (error != NULL && error_length > 0) snprintf(error, error_length, "%s", load_error);
  return 0;
}

// MARK: - Cancellation

struct ccurl_cancel_token {
  pthread_mutex_t mutex;
  /// Set once by `ccurl_cancel_token_cancel`; read atomically by the transfer loop.
  int cancelled;
  /// The multi handle of the running transfer, or NULL; guarded by `mutex` so a
  /// wakeup never reaches a handle that is being cleaned up.
  CURLM *multi;
};

ccurl_cancel_token *ccurl_cancel_token_create(void) {
  ccurl_cancel_token *token = calloc(1, sizeof *token);
  if (token != NULL) pthread_mutex_init(&token->mutex, NULL);
  return token;
}

void ccurl_cancel_token_cancel(ccurl_cancel_token *token) {
  if (token == NULL) return;
  pthread_mutex_lock(&token->mutex);
  __atomic_store_n(&token->cancelled, 1, __ATOMIC_SEQ_CST);
  if (token->multi != NULL) curl.multi_wakeup(token->multi);
  pthread_mutex_unlock(&token->mutex);
}

void ccurl_cancel_token_free(ccurl_cancel_token *token) {
  if (token == NULL) return;
  pthread_mutex_destroy(&token->mutex);
  free(token);
}

static int is_cancelled(ccurl_cancel_token *token) {
  return token != NULL && __atomic_load_n(&token->cancelled, __ATOMIC_SEQ_CST);
}

/// Publishes (or, with NULL, withdraws) the multi handle a cancel should wake.
/// Returns 0 when the token was already cancelled.
static int attach(ccurl_cancel_token *token, CURLM *multi) {
  if (token == NULL) return 1;
  pthread_mutex_lock(&token->mutex);
  token->multi = multi;
  int cancelled = token->cancelled;
  pthread_mutex_unlock(&token->mutex);
  return !cancelled;
}

// MARK: - Transfer

typedef struct {
  uint8_t *bytes;
  size_t length;
  size_t capacity;
  size_t limit;
  int too_large;
  int out_of_memory;
} body_buffer;

static size_t write_body(char *data, size_t size, size_t count, void *context) {
  body_buffer *buffer = context;
  size_t length = size * count;
  if (length > buffer->limit - buffer->length) {
    buffer->too_large = 1;
    return 0;  // Makes libcurl stop with CURLE_WRITE_ERROR.
  }
  if (buffer->length + length > buffer->capacity) {
    size_t capacity = buffer->capacity < 16384 ? 16384 : buffer->capacity;
    while (capacity < buffer->length + length) capacity *= 2;
    uint8_t *bytes = realloc(buffer->bytes, capacity);
    if (bytes == NULL) {
      buffer->out_of_memory = 1;
      return 0;
    }
    buffer->bytes = bytes;
    buffer->capacity = capacity;
  }
  memcpy(buffer->bytes + buffer->length, data, length);
  buffer->length += length;
  return length;
}

static char *copy_string(const char *text) {
  return text != NULL ? strdup(text) : NULL;
}

/// Appends each '\n'-separated line of `lines` to `list`.
static struct curl_slist *append_header_lines(struct curl_slist *list, const char *lines) {
  while (lines != NULL && *lines != '\0') {
    const char *end = strchr(lines, '\n');
    size_t length = end != NULL ? (size_t)(end - lines) : strlen(lines);
    if (length > 0) {
      char *line = strndup(lines, length);
      if (line != NULL) {
        struct curl_slist *appended = curl.slist_append(list, line);
        if (appended != NULL) list = appended;
        free(line);
      }
    }
    lines = end != NULL ? end + 1 : NULL;
  }
  return list;
}

static ccurl_outcome finish(ccurl_response *response, ccurl_outcome outcome, int curl_code,
                            const char *error) {
  response->outcome = outcome;
  response->curl_code = curl_code;
  if (outcome != CCURL_OK) response->error = copy_string(error);
  return outcome;
}

static void configure(CURL *easy, const ccurl_request *request, body_buffer *buffer,
                      struct curl_slist *headers, char *error_buffer) {
  curl.easy_setopt(easy, CURLOPT_URL, request->url);
  curl.easy_setopt(easy, CURLOPT_ERRORBUFFER, error_buffer);
  // Threads and signals do not mix: without this, libcurl's DNS timeouts use SIGALRM.
  curl.easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
  // Callers want the body of a 4xx or 5xx too: it carries the upstream's message.
  curl.easy_setopt(easy, CURLOPT_FAILONERROR, 0L);
  curl.easy_setopt(easy, CURLOPT_NOPROGRESS, 1L);
  curl.easy_setopt(easy, CURLOPT_ACCEPT_ENCODING, "");
  curl.easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, request->connect_timeout_ms);
  curl.easy_setopt(easy, CURLOPT_TIMEOUT_MS, request->timeout_ms);
  if (request->max_response_bytes > 0) {
    // Refuses at once a response whose Content-Length is over the limit.
    curl.easy_setopt(easy, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)request->max_response_bytes);
  }
  curl.easy_setopt(easy, CURLOPT_WRITEFUNCTION, write_body);
  curl.easy_setopt(easy, CURLOPT_WRITEDATA, buffer);
  // Only HTTP(S), also after a redirect: a configured URL must never reach file:// or others.
  if (curl.easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https") == CURLE_UNKNOWN_OPTION) {
    curl.easy_setopt(easy, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
    curl.easy_setopt(easy, CURLOPT_REDIR_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
  } else {
    curl.easy_setopt(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
  }
  curl.easy_setopt(easy, CURLOPT_FOLLOWLOCATION, request->max_redirects > 0 ? 1L : 0L);
  curl.easy_setopt(easy, CURLOPT_MAXREDIRS, request->max_redirects);
  if (headers != NULL) curl.easy_setopt(easy, CURLOPT_HTTPHEADER, headers);

  const char *method = request->method != NULL ? request->method : "GET";
  if (strcmp(method, "GET") == 0) {
    curl.easy_setopt(easy, CURLOPT_HTTPGET, 1L);
  } else if (strcmp(method, "HEAD") == 0) {
    curl.easy_setopt(easy, CURLOPT_NOBODY, 1L);
  } else {
    // POSTFIELDS makes libcurl send the body (not copied: it outlives the transfer);
    // CUSTOMREQUEST then only replaces the method name.
    static const uint8_t empty[1];
    const uint8_t *body = request->body != NULL ? request->body : empty;
    curl.easy_setopt(easy, CURLOPT_POSTFIELDS, body);
    curl.easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)request->body_length);
    curl.easy_setopt(easy, CURLOPT_CUSTOMREQUEST, method);
  }
}

/// Drives the transfer until it ends or the token is cancelled.
/// Returns the transfer's CURLcode, or -1 when cancelled.
static CURLcode run(CURLM *multi, ccurl_cancel_token *token, char *error_buffer) {
  for (;;) {
    if (is_cancelled(token)) return -1;
    int running = 0;
    CURLMcode code = curl.multi_perform(multi, &running);
    if (code != CURLM_OK) {
      snprintf(error_buffer, CURL_ERROR_SIZE, "%s", curl.multi_strerror(code));
      return CURLE_FAILED_INIT;
    }
    if (running == 0) break;
    // A cancel wakes the poll at once; the timeout only bounds the wait.
    code = curl.multi_poll(multi, NULL, 0, 1000, NULL);
    if (code != CURLM_OK) {
      snprintf(error_buffer, CURL_ERROR_SIZE, "%s", curl.multi_strerror(code));
      return CURLE_FAILED_INIT;
    }
  }
  int queued = 0;
  for (CURLMsg *message; (message = curl.multi_info_read(multi, &queued)) != NULL;) {
    if (message->msg == CURLMSG_DONE) return message->data.result;
  }
  return CURLE_OK;
}

ccurl_outcome ccurl_perform(const ccurl_request *request, ccurl_response *response) {
  memset(response, 0, sizeof *response);
  if (!load()) return finish(response, CCURL_LIBRARY_UNAVAILABLE, 0, load_error);
  if (is_cancelled(request->cancel)) return finish(response, CCURL_CANCELLED, 0, "cancelled");

  char error_buffer[CURL_ERROR_SIZE] = "";
  size_t limit = request->max_response_bytes > 0 ? request->max_response_bytes : SIZE_MAX;
  body_buffer buffer = {.limit = limit};
  CURL *easy = curl.easy_init();
  CURLM *multi = curl.multi_init();
  struct curl_slist *headers = NULL;
  ccurl_outcome outcome = CCURL_FAILED;
  CURLcode code = CURLE_FAILED_INIT;
  if (easy == NULL || multi == NULL) {
    snprintf(error_buffer, sizeof error_buffer, "could not create a libcurl handle");
    goto done;
  }
  // "Expect:" stops libcurl from waiting for a 100-continue before sending a large body.
  headers = append_header_lines(curl.slist_append(NULL, "Expect:"), request->headers);
  configure(easy, request, &buffer, headers, error_buffer);
  if (curl.multi_add_handle(multi, easy) != CURLM_OK) {
    snprintf(error_buffer, sizeof error_buffer, "could not start the transfer");
    goto done;
  }
  if (attach(request->cancel, multi)) {
    code = run(multi, request->cancel, error_buffer);
  } else {
    code = -1;
  }
  attach(request->cancel, NULL);
  curl.multi_remove_handle(multi, easy);

  if (code == -1) {
    outcome = CCURL_CANCELLED;
    snprintf(error_buffer, sizeof error_buffer, "cancelled");
  } else if (buffer.too_large || code == CURLE_FILESIZE_EXCEEDED) {
    outcome = CCURL_TOO_LARGE;
    snprintf(error_buffer, sizeof error_buffer, "the response is larger than %zu bytes",
             request->max_response_bytes);
  } else if (buffer.out_of_memory) {
    snprintf(error_buffer, sizeof error_buffer, "out of memory for the response");
  } else if (code != CURLE_OK) {
    if (error_buffer[0] == '\0') {
      snprintf(error_buffer, sizeof error_buffer, "%s", curl.easy_strerror(code));
    }
  } else {
    outcome = CCURL_OK;
    long status = 0;
    char *content_type = NULL;
    curl.easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
    curl.easy_getinfo(easy, CURLINFO_CONTENT_TYPE, &content_type);
    response->status = status;
    response->content_type = copy_string(content_type);
    response->body = buffer.bytes;
    response->body_length = buffer.length;
    buffer.bytes = NULL;
  }

done:
  free(buffer.bytes);
  if (headers != NULL) curl.slist_free_all(headers);
  if (multi != NULL) curl.multi_cleanup(multi);
  if (easy != NULL) curl.easy_cleanup(easy);
  return finish(response, outcome, code == -1 ? 0 : code, error_buffer);
}

void ccurl_response_free(ccurl_response *response) {
  if (response == NULL) return;
  free(response->body);
  free(response->content_type);
  free(response->error);
  response->body = NULL;
  response->content_type = NULL;
  response->error = NULL;
}
