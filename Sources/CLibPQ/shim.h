#include <libpq-fe.h>

// Character-literal macros do not import into Swift; the tests compare these
// with the daemon's own declarations.
static const int CATALOGD_PG_DIAG_SQLSTATE = PG_DIAG_SQLSTATE;
static const int CATALOGD_PG_DIAG_MESSAGE_PRIMARY = PG_DIAG_MESSAGE_PRIMARY;
