// SPDX-License-Identifier: GPL-2.0-only
#ifndef LIBCC_QUICK_EXIT_H
#define LIBCC_QUICK_EXIT_H

#include <cstdio>
#include <cstdlib>
#include <iostream>

namespace ns3
{

/**
 * Ends a simulation program with status once its own work is done: every
 * object of its main destroyed (Simulator::Destroy called, MPI finished,
 * files closed). Flushes the C and C++ standard streams, then exits without
 * the libraries' teardown (their static destructors and atexit handlers),
 * which only frees memory the kernel takes back anyway and, to do it, maps
 * in code of every library: 0.3 MB of a small run's peak RSS
 * (docs/performance.md, Memory). Our programs' main is
 * `QuickExit(Main(argc, argv))`, Main holding every object of the run; a
 * program that still has work in destructors must not call it.
 */
[[noreturn]] inline void
QuickExit(int status)
{
    std::cout.flush();
    std::clog.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    std::_Exit(status);
}

} // namespace ns3

#endif
