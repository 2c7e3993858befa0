// scaffold: replaced during this session
