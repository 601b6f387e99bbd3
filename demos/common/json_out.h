/* The house's JSON writing lives in base/ (srcprof_base); the programs'
 * files include it by this name. */
#include "srcprof_base/json.h"
