/* The house's stats module lives in base/ (srcprof_base); the programs'
 * files include it by this name. */
#include "srcprof_base/stats.h"
