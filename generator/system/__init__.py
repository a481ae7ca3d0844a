"""The machine under a command: the processes a build forks, OS faults and Ctrl+C said in
one line, folders walked without recursion."""
