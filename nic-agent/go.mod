module weft.io/nic-agent

// 1.26.0, not the local patch level: any Go 1.26 toolchain may build the agent.
go 1.26.0
