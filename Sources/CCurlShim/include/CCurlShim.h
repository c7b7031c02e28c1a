// A small, non-variadic C interface to the system libcurl, for Swift.
//
// libcurl is opened with dlopen("libcurl.so.4") on first use, so the daemon
// neither links it nor pays for loading it (and its TLS stack) at start-up,
// and a machine without libcurl still runs every embedded backend. No curl
// headers are needed at build time: the shim declares the few prototypes and
// constants it uses (they are part of libcurl's stable ABI).

#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Lets another thread abort a running `ccurl_perform` at once.
typedef struct ccurl_cancel_token ccurl_cancel_token;

/// A new token, or NULL when out of memory. Free it with `ccurl_cancel_token_free`
/// once the transfer using it has returned.
ccurl_cancel_token *ccurl_cancel_token_create(void);

/// Marks the token cancelled and wakes the transfer using it. Thread-safe;
/// may be called before, during or after the transfer.
void ccurl_cancel_token_cancel(ccurl_cancel_token *token);

void ccurl_cancel_token_free(ccurl_cancel_token *token);

typedef struct {
  /// "GET", "POST", "PUT", "DELETE", "HEAD", ...
  const char *method;
  const char *url;
  /// Request header lines ("Name: value"), separated by '\n'; may be NULL.
  const char *headers;
  /// The request body; NULL or empty for none.
  const uint8_t *body;
  size_t body_length;
  long connect_timeout_ms;
  /// Limit on the whole transfer, connecting included.
  long timeout_ms;
  /// A larger (decoded) response body ends the transfer with CCURL_TOO_LARGE.
  size_t max_response_bytes;
  /// 0 follows no redirect.
  long max_redirects;
  /// May be NULL.
  ccurl_cancel_token *cancel;
} ccurl_request;

typedef enum {
  /// The exchange completed; `status` holds the HTTP status, whatever it is.
  CCURL_OK = 0,
  /// libcurl could not be loaded; `error` says why.
  CCURL_LIBRARY_UNAVAILABLE = 1,
  CCURL_CANCELLED = 2,
  CCURL_TOO_LARGE = 3,
  /// libcurl failed; `curl_code` and `error` say why.
  CCURL_FAILED = 4,
} ccurl_outcome;

typedef struct {
  ccurl_outcome outcome;
  /// The CURLcode (0 when libcurl reported success).
  int curl_code;
  long status;
  /// malloc'd; NULL when empty.
  uint8_t *body;
  size_t body_length;
  /// malloc'd; NULL when the response had no Content-Type.
  char *content_type;
  /// malloc'd; NULL on success.
  char *error;
} ccurl_response;

/// 1 when libcurl is (or could now be) loaded, else 0 with the reason in `error`.
int ccurl_available(char *error, size_t error_length);

/// Runs one HTTP exchange, blocking the calling thread until it ends.
/// Always fills `response`; release it with `ccurl_response_free`.
ccurl_outcome ccurl_perform(const ccurl_request *request, ccurl_response *response);

void ccurl_response_free(ccurl_response *response);

#ifdef __cplusplus
}
#endif

#endif
