// libsystemd (sd-bus, sd-daemon, sd-journal), as Swift sees it.
#pragma once
#include <systemd/sd-bus.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
