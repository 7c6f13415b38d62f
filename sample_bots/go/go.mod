module arena/bots/gobot

go 1.21
