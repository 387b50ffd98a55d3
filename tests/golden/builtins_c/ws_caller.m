function ws_caller()
% Helper of workspaces.m: a function workspace for assignin/evalin 'caller'.
local_value = 5;
ws_setter();
fprintf('from_callee = %d\n', from_callee);
end
