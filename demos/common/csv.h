/* The house's csv module lives in base/ (srcprof_base); the programs'
 * files include it by this name. */
#include "srcprof_base/csv.h"
