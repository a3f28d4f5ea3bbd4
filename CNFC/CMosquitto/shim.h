// libmosquitto (the MQTT client library of Eclipse Mosquitto), as Swift sees it.
#pragma once
#include <mosquitto.h>
