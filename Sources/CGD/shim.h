// The libgd API as Darkroom uses it. Imported by DarkroomGD only.
#ifndef DARKROOM_CGD_SHIM_H
#define DARKROOM_CGD_SHIM_H
#include <gd.h>
#endif
