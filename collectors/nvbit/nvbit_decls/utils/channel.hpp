/* collectors/nvbit/nvbit_decls/utils/channel.hpp: the device-to-host
 * channel of NVBit's utilities, declared for warpscope's compile check. */
#pragma once

#include <pthread.h>
#include <stdint.h>

class ChannelDev {
  public:
    __device__ void push(void *packet, uint32_t nbytes);
    __device__ void flush();
};

class ChannelHost {
  public:
    void init(int id, int buff_size, ChannelDev *ch_dev, void *(*thread_fun)(void *),
              void *args = NULL);
    void destroy(bool dealloc);
    uint32_t recv(void *buff, uint32_t max_buff_size);
    pthread_t get_thread();
};
