#include "ccurl_shims.h"
