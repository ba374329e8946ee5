// GCC's plugin headers, in the order they need (each uses what the ones before it define), for
// every file of larm's GCC plugin.
#pragma once

// clang-format off
#include "gcc-plugin.h"
#include "plugin-version.h"
#include "backend.h"
#include "tree.h"
#include "gimple.h"
#include "tree-pass.h"
#include "ssa.h"
#include "gimple-iterator.h"
#include "tree-into-ssa.h"
#include "stringpool.h"
#include "attribs.h"
#include "cgraph.h"
#include "varasm.h"
#include "stor-layout.h"
#include "internal-fn.h"
#include "diagnostic-core.h"
#include "context.h"
#include "builtins.h"
#include "gimplify.h"
#include "version.h"
#include "output.h"
#include "tree-iterator.h"
#include "cfgloop.h"
#include "cfgloopmanip.h"
#include "cfganal.h"
#include "tree-ssa-loop-manip.h"
#include "gimple-fold.h"
#include "gimplify-me.h"
// clang-format on
