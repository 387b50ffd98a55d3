function ws_setter()
% Helper of workspaces.m: writes into its caller and the base workspace.
assignin('caller', 'from_callee', 42);
v = evalin('caller', 'local_value');
fprintf('caller local_value = %d\n', v);
assignin('base', 'in_base', 7);
end
