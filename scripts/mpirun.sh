#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# mpirun as root on a machine with fewer cores than ranks (tests, sweeps).
exec mpirun --allow-run-as-root --oversubscribe "$@"
