#include <fcntl.h>
#include <libinput.h>
#include <libudev.h>
#include <unistd.h>
