#ifndef CEDITLINE_SHIM_H
#define CEDITLINE_SHIM_H
#include <histedit.h>
#include <stdio.h>
#include <locale.h>
#endif
